// The administrator of the browser journeys: the server starts with ADMIN_EMAILS naming it
// (e2e/global-setup.ts), so it is the administrator whichever journey confirms an account first.
export const E2E_ADMIN_EMAIL = 'admin@e2e.example.test';
