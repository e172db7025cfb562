import { afterEach, describe, expect, it, vi } from 'vitest';
import { openAuthorizationWindow } from './authorization-window.ts';

function fakePopup() {
  return { closed: false, location: { href: '' }, focus: vi.fn(), close: vi.fn() };
}

describe('authorization window (SPEC §4 Connect flow, §9)', () => {
  afterEach(() => vi.useRealTimers());

  it('opens at once, goes to the request URL, and is polled every 555 ms until it closes', async () => {
    vi.useFakeTimers();
    const popup = fakePopup();
    const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const auth = openAuthorizationWindow();
    expect(open).toHaveBeenCalledTimes(1);
    auth.navigate('https://broker.example/authorize?state=s1');
    expect(popup.location.href).toBe('https://broker.example/authorize?state=s1');
    const closed = vi.fn();
    void auth.closed.then(closed);
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(554);
    expect(closed).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(closed).toHaveBeenCalled();
  });

  it('closes the window after the connector time-out (300000 ms)', async () => {
    vi.useFakeTimers();
    const popup = fakePopup();
    popup.close.mockImplementation(() => {
      popup.closed = true;
    });
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const auth = openAuthorizationWindow();
    auth.navigate('https://broker.example/authorize');
    await vi.advanceTimersByTimeAsync(299_999);
    expect(popup.close).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(popup.close).toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(555);
    await expect(auth.closed).resolves.toBeUndefined();
  });

  it('navigates the current window when the popup is blocked', () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    const assign = vi.fn();
    openAuthorizationWindow({ assign }).navigate('https://broker.example/authorize');
    expect(assign).toHaveBeenCalledWith('https://broker.example/authorize');
  });

  it('cancel closes the window and stops watching', () => {
    const popup = fakePopup();
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const auth = openAuthorizationWindow();
    auth.cancel();
    expect(popup.close).toHaveBeenCalled();
  });
});
