// Access checks for resolvers (SPEC §6 group bits: @router/shared's GROUP). They live with the
// caller in modules/auth, so services check access without importing GraphQL.
export { requireGroup, requireViewer } from '../modules/auth/caller.ts';
