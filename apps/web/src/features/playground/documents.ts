import { graphql } from '../../gql/index.ts';

/** The caller's connectors for the playground's broker and account selects (SPEC §3 Connector). */
export const PlaygroundConnectorsDocument = graphql(`
  query PlaygroundConnectors {
    connectors {
      key
      providerName
      accounts
      isActive
      isDemo
    }
  }
`);

/** SPEC §7 orderPreview: the order is validated and previewed by the broker; nothing is placed. */
export const PlaygroundOrderPreviewDocument = graphql(`
  mutation PlaygroundOrderPreview($connectorKey: String!, $accountId: String, $data: String!) {
    orderPreview(connectorKey: $connectorKey, accountId: $accountId, data: $data)
  }
`);

/** The webhooks of the chosen connector, for their symbol maps (risk control `symbolMap`). */
export const PlaygroundHooksDocument = graphql(`
  query PlaygroundHooks($connectorKey: String!) {
    hooks(connectorKey: $connectorKey) {
      key
      name
      accountId
      rules
    }
  }
`);
