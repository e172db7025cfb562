import { graphql } from '../../gql/index.ts';

/** Checks the user and records 'proxy on'; the answer is sent as X-User from then on. */
export const AdminProxyStartDocument = graphql(`
  mutation AdminProxyStart($email: String!) {
    adminProxyStart(email: $email)
  }
`);

export const AdminProxyEndDocument = graphql(`
  mutation AdminProxyEnd($email: String!) {
    adminProxyEnd(email: $email)
  }
`);

export const AdminAccountRewardDocument = graphql(`
  mutation AdminAccountReward($email: String!, $credits: Int!, $idempotencyKey: String) {
    adminAccountReward(email: $email, credits: $credits, idempotencyKey: $idempotencyKey)
  }
`);

export const AdminReferrerCreateDocument = graphql(`
  mutation AdminReferrerCreate($name: String, $providerName: String, $credits: Int!) {
    adminReferrerCreate(name: $name, providerName: $providerName, credits: $credits) {
      code
    }
  }
`);

export const AdminReferrerDeleteDocument = graphql(`
  mutation AdminReferrerDelete($referrerCodeOrUrl: String!) {
    adminReferrerDelete(referrerCodeOrUrl: $referrerCodeOrUrl)
  }
`);

/** CSV text; asked network-only (SPEC §7). */
export const AdminReferrerStatsReportDocument = graphql(`
  query AdminReferrerStatsReport {
    adminReferrerStatsReport
  }
`);

export const AdminUserProfessionalDocument = graphql(`
  mutation AdminUserProfessional($email: String!, $isProfessional: Boolean!) {
    adminUserProfessional(email: $email, isProfessional: $isProfessional) {
      email
      group
    }
  }
`);

export const AdminAuditLogDocument = graphql(`
  query AdminAuditLog($limit: Int, $createdAtFrom: Float) {
    adminAuditLog(limit: $limit, createdAtFrom: $createdAtFrom) {
      id
      createdAt
      adminEmail
      targetEmail
      action
      details
    }
  }
`);
