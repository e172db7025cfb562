import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { providersHandler } from '../../test/connectors.ts';
import { fixture } from '../../test/fake-server.ts';
import { renderRoute } from '../../test/render-route.tsx';

const site = (supportEmail: string | null) =>
  fixture(() => ({ data: { site: { publicUrl: 'https://router.example.com', supportEmail } } }));

describe('General FAQs (/faq)', () => {
  it('answers the questions a trader setting up alerts has', async () => {
    await renderRoute('/faq', { handlers: { Providers: providersHandler } });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('General FAQs');
    const questions = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(questions).toEqual([
      'How do I send TradingView alerts to my broker?',
      'Why does TradingView never reach my webhook?',
      'How do {{ticker}}, {{close}} and the strategy placeholders work?',
      'How do I test without placing a real order?',
      'What does a signal cost?',
      'Can one alert place two orders?',
      'What is client_id for?',
      'Why was my webhook deactivated?',
      'Which brokers are supported?',
      'How do I reach support?',
    ]);
    expect(document.getElementById('ports')?.textContent).toMatch(/port 80 or 443/);
    const brokers = document.getElementById('brokers') as HTMLElement;
    expect(within(brokers).getByText('Alpaca')).toBeTruthy();
    expect(within(brokers).getByText('Schwab').parentElement?.textContent).toMatch(/beta/);
    expect(within(brokers).queryByText('Gone Broker')).toBeNull();
    expect(within(brokers).queryByText('Lightspeed')).toBeNull();
  });

  it('gives the operator’s support address, in the answer and the footer', async () => {
    await renderRoute('/faq', { handlers: { Site: site('help@router.example.com') } });
    const support = document.getElementById('support') as HTMLElement;
    expect((await within(support).findByRole('link', { name: 'help@router.example.com' })).getAttribute('href')).toBe(
      'mailto:help@router.example.com',
    );
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(footer).getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toBe(
      'mailto:help@router.example.com',
    );
  });

  it('says to ask the operator when no support address is set', async () => {
    await renderRoute('/faq', { handlers: { Site: site(null) } });
    expect((document.getElementById('support') as HTMLElement).textContent).toMatch(/no support address set/);
  });

  it('opens on a link whose hash is not valid percent-encoding', async () => {
    await renderRoute('/faq#%E0', { handlers: { Providers: providersHandler } });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('General FAQs');
  });
});

describe('Privacy policy (/privacy)', () => {
  it('says what is stored and why, with the support address', async () => {
    await renderRoute('/privacy', { handlers: { Site: site('help@router.example.com') } });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Privacy policy');
    expect(document.getElementById('what-we-keep')?.textContent).toMatch(/encrypted/);
    expect((await screen.findByRole('link', { name: 'help@router.example.com' })).getAttribute('href')).toBe(
      'mailto:help@router.example.com',
    );
  });
});
