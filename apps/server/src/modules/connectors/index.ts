// Broker connections: GraphQL services, and what the hook endpoint and the playground call.
export { activateConnector, OAUTH_STATE_MESSAGE } from './activate.ts';
export { BRANCH_PROVIDER, searchBranches } from './branches.ts';
export { asAppError } from './broker-error.ts';
export { type ConnectorCreation, createConnector } from './create.ts';
export { deactivateConnector } from './deactivate.ts';
export {
  CONNECTOR_NOT_FOUND,
  deleteConnector,
  getConnector,
  listConnectors,
  renameConnectorAccounts,
  requireConnector,
} from './manage.ts';
export { brokerContextFor, offeredProviders, providerBroker } from './provider.ts';
export { type BrokerCall, type SessionConnector, UNREADABLE_SECRETS_MESSAGE, withBrokerSession } from './session.ts';
export { type Actor, CONNECTOR_DEACTIVATED_MESSAGE, type ConnectorView, toConnectorView } from './types.ts';
