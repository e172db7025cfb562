import { graphql } from '../../gql/index.ts';

/** The hooks of one connector, oldest first (SPEC §3 Hook). */
export const HooksDocument = graphql(`
  query Hooks($connectorKey: String!, $since: Float) {
    hooks(connectorKey: $connectorKey) {
      key
      shortKey
      url
      name
      accountId
      isActive
      isTest
      deactivatedReason
      calledAt
      health(since: $since) {
        calls
        errorRate
      }
      rules
      pausedReason
    }
  }
`);

export const HookCreateDocument = graphql(`
  mutation HookCreate($connectorKey: String!, $accountId: String!, $name: String, $isTest: Boolean) {
    hookCreate(connectorKey: $connectorKey, accountId: $accountId, name: $name, isTest: $isTest) {
      key
      shortKey
      url
      name
      accountId
      isActive
      isTest
      deactivatedReason
      calledAt
    }
  }
`);

export const HookUpdateDocument = graphql(`
  mutation HookUpdate($key: String!, $name: String!) {
    hookUpdate(key: $key, name: $name) {
      key
      name
    }
  }
`);

export const HookDeleteDocument = graphql(`
  mutation HookDelete($key: String!) {
    hookDelete(key: $key)
  }
`);

/** Turns a deactivated hook back on (owner only); answers the hook as it now is. */
export const HookActivateDocument = graphql(`
  mutation HookActivate($key: String!) {
    hookActivate(key: $key) {
      key
      isActive
      deactivatedReason
    }
  }
`);
/** Replaces a hook's risk-control settings (docs/RISK-CONTROLS.md); invalid ones are refused whole. */
export const HookRulesDocument = graphql(`
  mutation HookRules($key: String!, $rules: String!) {
    hookUpdate(key: $key, rules: $rules) {
      key
      rules
    }
  }
`);

export const HooksPauseDocument = graphql(`
  mutation HooksPause($reason: String!) {
    hooksPause(reason: $reason)
  }
`);

export const HooksResumeDocument = graphql(`
  mutation HooksResume {
    hooksResume
  }
`);

/** Signals held until their webhook's trading window opens (outsideWindow: "queue"). */
export const QueuedSignalsDocument = graphql(`
  query QueuedSignals {
    queuedSignals(limit: 100) {
      id
      hookKey
      status
      placeAt
      order
    }
  }
`);

export const QueuedSignalCancelDocument = graphql(`
  mutation QueuedSignalCancel($id: String!) {
    queuedSignalCancel(id: $id) {
      id
      status
    }
  }
`);
