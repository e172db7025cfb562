// The application for professional status (accountUpgrade) that billing and admin tests send: a
// complete one, every legal question answered 'no'.
import { LEGAL_QUESTIONS } from '@router/shared';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { gql } from './identity.ts';

export const UPGRADE = 'mutation($m: JSON!) { accountUpgrade(metadata: $m) }';

export const professionalApplication = () => ({
  businessName: 'Acme Signals LLC',
  businessWebsite: 'https://acme.example',
  businessAddress: '1 Main St, Chicago',
  businessDescription: 'Signals for our clients',
  businessContact: 'Jane Doe, jane@acme.example',
  legal: Object.fromEntries(Object.keys(LEGAL_QUESTIONS).map((k) => [k, 'no'])),
});

/** Sends the application as the user of `headers`, and checks it was taken. */
export async function applyForProfessional(t: TestApp, headers: Record<string, string>): Promise<void> {
  const applied = await gql(t.app, UPGRADE, { m: professionalApplication() }, headers);
  expect(applied.data).toEqual({ accountUpgrade: true });
}
