// Access checks for resolvers (SPEC §6 group bits: 1 administrator, 4 customer, 16 professional).
// Every signed-in screen is the customer's (SPEC §6), so `requireViewer`, which every resolver of
// the signed-in app calls, demands the customer bit; only the `user` query (the web app shows
// 'No access' to a user without it) and sign-out take any signed-in caller. They live with the
// caller in modules/auth, so services check access without importing GraphQL.
export {
  actsAsUser,
  requireDashboard,
  requireGroup,
  requireOwner,
  requireSignedIn,
  requireViewer,
} from '../modules/auth/caller.ts';
