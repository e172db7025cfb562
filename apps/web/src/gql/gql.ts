/* eslint-disable */
import * as types from './graphql.ts';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query ActivityActions(\n    $search: String\n    $createdAtFrom: Float\n    $since: Float\n    $result: String\n    $hookKey: String\n    $providerName: String\n    $symbol: String\n    $signalId: String\n    $limit: Int\n  ) {\n    actions(\n      search: $search\n      createdAtFrom: $createdAtFrom\n      since: $since\n      result: $result\n      hookKey: $hookKey\n      providerName: $providerName\n      symbol: $symbol\n      signalId: $signalId\n      limit: $limit\n    ) {\n      id\n      code\n      address\n      metadata\n      createdAt\n      trade {\n        hookKey\n        hookName\n        via\n        providerName\n        symbol\n        side\n        quantity\n        orderType\n        price\n        result\n        repeat\n        checking\n        status\n        elapsedMs\n        phases {\n          parse\n          store\n          broker\n        }\n        brokerOrderId\n        order\n        isTest\n      }\n    }\n  }\n": typeof types.ActivityActionsDocument,
    "\n  query ActivityConnectors {\n    connectors {\n      key\n      providerName\n    }\n  }\n": typeof types.ActivityConnectorsDocument,
    "\n  query ActivityHooks($connectorKey: String!) {\n    hooks(connectorKey: $connectorKey) {\n      key\n      name\n    }\n  }\n": typeof types.ActivityHooksDocument,
    "\n  mutation AdminProxyStart($email: String!) {\n    adminProxyStart(email: $email)\n  }\n": typeof types.AdminProxyStartDocument,
    "\n  mutation AdminProxyEnd($email: String!) {\n    adminProxyEnd(email: $email)\n  }\n": typeof types.AdminProxyEndDocument,
    "\n  mutation AdminAccountReward($email: String!, $credits: Int!, $idempotencyKey: String) {\n    adminAccountReward(email: $email, credits: $credits, idempotencyKey: $idempotencyKey)\n  }\n": typeof types.AdminAccountRewardDocument,
    "\n  mutation AdminReferrerCreate($name: String, $providerName: String, $credits: Int!) {\n    adminReferrerCreate(name: $name, providerName: $providerName, credits: $credits) {\n      code\n    }\n  }\n": typeof types.AdminReferrerCreateDocument,
    "\n  mutation AdminReferrerDelete($referrerCodeOrUrl: String!) {\n    adminReferrerDelete(referrerCodeOrUrl: $referrerCodeOrUrl)\n  }\n": typeof types.AdminReferrerDeleteDocument,
    "\n  query AdminReferrerStatsReport {\n    adminReferrerStatsReport\n  }\n": typeof types.AdminReferrerStatsReportDocument,
    "\n  mutation AdminUserProfessional($email: String!, $isProfessional: Boolean!) {\n    adminUserProfessional(email: $email, isProfessional: $isProfessional) {\n      email\n      group\n    }\n  }\n": typeof types.AdminUserProfessionalDocument,
    "\n  query AdminAuditLog($limit: Int, $createdAtFrom: Float) {\n    adminAuditLog(limit: $limit, createdAtFrom: $createdAtFrom) {\n      id\n      createdAt\n      adminEmail\n      targetEmail\n      action\n      details\n    }\n  }\n": typeof types.AdminAuditLogDocument,
    "\n  query AuthProviders {\n    authProviders {\n      google\n      googleClientId\n      apple\n      appleClientId\n    }\n  }\n": typeof types.AuthProvidersDocument,
    "\n  mutation Signin($type: String!, $credentials: JSON!, $metadata: JSON) {\n    signin(type: $type, credentials: $credentials, metadata: $metadata) {\n      token\n      issuer\n      email\n    }\n  }\n": typeof types.SigninDocument,
    "\n  mutation Signout {\n    signout\n  }\n": typeof types.SignoutDocument,
    "\n  mutation Signup(\n    $type: String!\n    $credentials: JSON!\n    $firstName: String\n    $lastName: String\n    $referrerCode: String\n    $promotionCode: String\n    $stripePriceId: String\n  ) {\n    signup(\n      type: $type\n      credentials: $credentials\n      firstName: $firstName\n      lastName: $lastName\n      referrerCode: $referrerCode\n      promotionCode: $promotionCode\n      stripePriceId: $stripePriceId\n    ) {\n      id\n      email\n      firstName\n    }\n  }\n": typeof types.SignupDocument,
    "\n  mutation AuthPasswordEstimate($password: String!) {\n    authPasswordEstimate(password: $password)\n  }\n": typeof types.AuthPasswordEstimateDocument,
    "\n  mutation AuthPasswordReset($token: String!, $password: String!, $password2: String!, $passcode: String) {\n    authPasswordReset(token: $token, password: $password, password2: $password2, passcode: $passcode)\n  }\n": typeof types.AuthPasswordResetDocument,
    "\n  mutation AuthPasswordResetRequest($email: String!) {\n    authPasswordResetRequest(email: $email)\n  }\n": typeof types.AuthPasswordResetRequestDocument,
    "\n  mutation AuthEmailConfirm($token: String!) {\n    authEmailConfirm(token: $token) {\n      token\n      issuer\n      email\n    }\n  }\n": typeof types.AuthEmailConfirmDocument,
    "\n  query SignupReferrer($code: String!) {\n    signupReferrer(code: $code) {\n      code\n      name\n      credits\n      isActive\n    }\n  }\n": typeof types.SignupReferrerDocument,
    "\n  query CreditsBanner {\n    account {\n      balance\n      lastGrant\n      unlimited\n      cardPayments\n    }\n  }\n": typeof types.CreditsBannerDocument,
    "\n  query AccountCredits {\n    account {\n      type\n      balance\n      credits\n      recurringCredits\n      recurringPeriodCredits\n      recurringPeriodEnd\n      signalsSpent\n      unlimited\n      cardPayments\n      professionalAppliedAt\n      metadata\n      product {\n        name\n        credits\n        price\n        currency\n        interval\n        professional\n      }\n      payments {\n        credits\n        price\n        currency\n        createdAt\n        stripeInvoiceId\n        description\n        interval\n        refunded\n        dispute {\n          status\n          amount\n        }\n      }\n    }\n  }\n": typeof types.AccountCreditsDocument,
    "\n  query AccountProducts {\n    accountProducts {\n      stripePriceId\n      name\n      description\n      credits\n      price\n      currency\n      type\n      interval\n      professional\n    }\n  }\n": typeof types.AccountProductsDocument,
    "\n  query AccountPaymentSession($stripePriceId: String, $coupon: String) {\n    accountPaymentSession(stripePriceId: $stripePriceId, coupon: $coupon) {\n      url\n    }\n  }\n": typeof types.AccountPaymentSessionDocument,
    "\n  query AccountInvoice($id: String!) {\n    accountInvoice(id: $id) {\n      id\n      invoicePdf\n    }\n  }\n": typeof types.AccountInvoiceDocument,
    "\n  query AccountSignupPaymentSession(\n    $email: String!\n    $stripePriceId: String!\n    $successUrl: String\n    $cancelUrl: String\n    $coupon: String\n    $promotionCode: String\n  ) {\n    accountSignupPaymentSession(\n      email: $email\n      stripePriceId: $stripePriceId\n      successUrl: $successUrl\n      cancelUrl: $cancelUrl\n      coupon: $coupon\n      promotionCode: $promotionCode\n    ) {\n      clientSecret\n      total\n      currency\n      description\n      publishableKey\n    }\n  }\n": typeof types.AccountSignupPaymentSessionDocument,
    "\n  mutation AccountUpgrade($metadata: JSON!) {\n    accountUpgrade(metadata: $metadata)\n  }\n": typeof types.AccountUpgradeDocument,
    "\n  query AccountLedger($createdAtFrom: Float) {\n    accountLedger(createdAtFrom: $createdAtFrom) {\n      id\n      createdAt\n      credits\n      cause\n      balanceAfter\n      note\n      dispute\n    }\n  }\n": typeof types.AccountLedgerDocument,
    "\n  query Connectors {\n    connectors {\n      key\n      providerName\n      accounts\n      branch\n      status\n      isActive\n      isDemo\n      expiresAt\n    }\n  }\n": typeof types.ConnectorsDocument,
    "\n  mutation ConnectorCreate($providerName: String!) {\n    connectorCreate(providerName: $providerName) {\n      type\n      credentials\n      referrerBase\n      requestUrl\n      redirectUrl\n      help\n      metadata\n    }\n  }\n": typeof types.ConnectorCreateDocument,
    "\n  mutation ConnectorActivate($providerName: String!, $credentials: [String!]!) {\n    connectorActivate(providerName: $providerName, credentials: $credentials) {\n      key\n      providerName\n      accounts\n      isActive\n      isDemo\n      expiresAt\n    }\n  }\n": typeof types.ConnectorActivateDocument,
    "\n  mutation ConnectorUpdate($key: String!, $accounts: String!) {\n    connectorUpdate(key: $key, accounts: $accounts) {\n      key\n      accounts\n    }\n  }\n": typeof types.ConnectorUpdateDocument,
    "\n  mutation ConnectorDelete($key: String!) {\n    connectorDelete(key: $key)\n  }\n": typeof types.ConnectorDeleteDocument,
    "\n  query ProviderBranches($search: String!) {\n    providerMetatraderBranches(search: $search) {\n      name\n      broker\n      platform\n    }\n  }\n": typeof types.ProviderBranchesDocument,
    "\n  query DashboardConnectors {\n    connectors {\n      key\n      isActive\n      expiresAt\n    }\n  }\n": typeof types.DashboardConnectorsDocument,
    "\n  query DashboardAccount {\n    account {\n      balance\n      unlimited\n    }\n  }\n": typeof types.DashboardAccountDocument,
    "\n  query DashboardOrderCounters {\n    actionsOrderCounters {\n      counter\n      counterTest\n    }\n  }\n": typeof types.DashboardOrderCountersDocument,
    "\n  query UserApps {\n    userApps {\n      key\n      name\n      description\n      redirectUrl\n      createdAt\n    }\n  }\n": typeof types.UserAppsDocument,
    "\n  mutation UserAppCreate($name: String!, $description: String, $redirectUrl: String!) {\n    userAppCreate(name: $name, description: $description, redirectUrl: $redirectUrl) {\n      key\n      secret\n    }\n  }\n": typeof types.UserAppCreateDocument,
    "\n  mutation UserAppDelete($key: String!) {\n    userAppDelete(key: $key)\n  }\n": typeof types.UserAppDeleteDocument,
    "\n  mutation UserAppSecretRotate($key: String!) {\n    userAppSecretRotate(key: $key) {\n      key\n      secret\n    }\n  }\n": typeof types.UserAppSecretRotateDocument,
    "\n  mutation UserAppUpdate($key: String!, $metadata: JSON!) {\n    userAppUpdate(key: $key, metadata: $metadata) {\n      key\n      name\n      description\n      redirectUrl\n      createdAt\n    }\n  }\n": typeof types.UserAppUpdateDocument,
    "\n  query Hooks($connectorKey: String!, $since: Float) {\n    hooks(connectorKey: $connectorKey) {\n      key\n      shortKey\n      url\n      name\n      accountId\n      isActive\n      isTest\n      deactivatedReason\n      calledAt\n      health(since: $since) {\n        calls\n        errorRate\n      }\n      rules\n      pausedReason\n    }\n  }\n": typeof types.HooksDocument,
    "\n  mutation HookCreate($connectorKey: String!, $accountId: String!, $name: String, $isTest: Boolean) {\n    hookCreate(connectorKey: $connectorKey, accountId: $accountId, name: $name, isTest: $isTest) {\n      key\n      shortKey\n      url\n      name\n      accountId\n      isActive\n      isTest\n      deactivatedReason\n      calledAt\n    }\n  }\n": typeof types.HookCreateDocument,
    "\n  mutation HookUpdate($key: String!, $name: String!) {\n    hookUpdate(key: $key, name: $name) {\n      key\n      name\n    }\n  }\n": typeof types.HookUpdateDocument,
    "\n  mutation HookDelete($key: String!) {\n    hookDelete(key: $key)\n  }\n": typeof types.HookDeleteDocument,
    "\n  mutation HookActivate($key: String!) {\n    hookActivate(key: $key) {\n      key\n      isActive\n      deactivatedReason\n    }\n  }\n": typeof types.HookActivateDocument,
    "\n  mutation HookRules($key: String!, $rules: String!) {\n    hookUpdate(key: $key, rules: $rules) {\n      key\n      rules\n    }\n  }\n": typeof types.HookRulesDocument,
    "\n  mutation HooksPause($reason: String!) {\n    hooksPause(reason: $reason)\n  }\n": typeof types.HooksPauseDocument,
    "\n  mutation HooksResume {\n    hooksResume\n  }\n": typeof types.HooksResumeDocument,
    "\n  query QueuedSignals {\n    queuedSignals(limit: 100) {\n      id\n      hookKey\n      status\n      placeAt\n      order\n    }\n  }\n": typeof types.QueuedSignalsDocument,
    "\n  mutation QueuedSignalCancel($id: String!) {\n    queuedSignalCancel(id: $id) {\n      id\n      status\n    }\n  }\n": typeof types.QueuedSignalCancelDocument,
    "\n  subscription Live {\n    live {\n      kind\n      at\n    }\n  }\n": typeof types.LiveDocument,
    "\n  query Notifications($connectorKey: String!, $accountId: String) {\n    notifications(connectorKey: $connectorKey, accountId: $accountId) {\n      key\n      type\n      isEnabled\n      metadata\n      connectorKey\n      accountId\n      disabledReason\n    }\n  }\n": typeof types.NotificationsDocument,
    "\n  query ConnectorNotifications($connectorKey: String!) {\n    notifications(connectorKey: $connectorKey) {\n      key\n      accountId\n    }\n  }\n": typeof types.ConnectorNotificationsDocument,
    "\n  mutation NotificationCreate($connectorKey: String!, $accountId: String!, $type: Int!, $metadata: String!) {\n    notificationCreate(connectorKey: $connectorKey, accountId: $accountId, type: $type, metadata: $metadata) {\n      key\n      secret\n    }\n  }\n": typeof types.NotificationCreateDocument,
    "\n  mutation NotificationUpdate($key: String!, $metadata: String!) {\n    notificationUpdate(key: $key, metadata: $metadata) {\n      key\n    }\n  }\n": typeof types.NotificationUpdateDocument,
    "\n  mutation NotificationDelete($key: String!) {\n    notificationDelete(key: $key)\n  }\n": typeof types.NotificationDeleteDocument,
    "\n  mutation NotificationSecretRotate($key: String!) {\n    notificationSecretRotate(key: $key) {\n      key\n      secret\n    }\n  }\n": typeof types.NotificationSecretRotateDocument,
    "\n  query NotificationDeliveries($connectorKey: String!, $accountId: String!) {\n    notificationDeliveries(connectorKey: $connectorKey, accountId: $accountId) {\n      id\n      notificationKey\n      type\n      eventId\n      event\n      status\n      attempts\n      responseCode\n      error\n      inDigest\n      createdAt\n      lastAttemptAt\n      nextAttemptAt\n    }\n  }\n": typeof types.NotificationDeliveriesDocument,
    "\n  mutation NotificationTest($key: String!) {\n    notificationTest(key: $key) {\n      id\n      status\n    }\n  }\n": typeof types.NotificationTestDocument,
    "\n  mutation NotificationDeliveryResend($id: String!) {\n    notificationDeliveryResend(id: $id) {\n      id\n      status\n    }\n  }\n": typeof types.NotificationDeliveryResendDocument,
    "\n  fragment PaperAccountFields on PaperAccount {\n    connectorKey\n    accountId\n    name\n    currency\n    startingCash\n    cash\n    equity\n    buyingPower\n    asOf\n    resetAt\n    openOrderCount\n    positions {\n      symbol\n      class\n      quantity\n      averagePrice\n      price\n      marketValue\n      unrealizedPnl\n    }\n    openOrders {\n      id\n      clientOrderId\n      symbol\n      class\n      action\n      type\n      quantity\n      limitPrice\n      stopPrice\n      duration\n      statusDescription\n      createdAt\n      legs {\n        symbol\n        action\n        ratio\n      }\n    }\n    fills {\n      id\n      clientOrderId\n      symbol\n      side\n      quantity\n      price\n      filledAt\n      description\n    }\n  }\n": typeof types.PaperAccountFieldsFragmentDoc,
    "\n  query PaperAccount($connectorKey: String!, $accountId: String!) {\n    paperAccount(connectorKey: $connectorKey, accountId: $accountId) {\n      ...PaperAccountFields\n    }\n  }\n": typeof types.PaperAccountDocument,
    "\n  mutation PaperAccountReset($connectorKey: String!, $accountId: String!) {\n    paperAccountReset(connectorKey: $connectorKey, accountId: $accountId) {\n      ...PaperAccountFields\n    }\n  }\n": typeof types.PaperAccountResetDocument,
    "\n  query PlaygroundConnectors {\n    connectors {\n      key\n      providerName\n      accounts\n      isActive\n      isDemo\n    }\n  }\n": typeof types.PlaygroundConnectorsDocument,
    "\n  mutation PlaygroundOrderPreview($connectorKey: String!, $accountId: String, $data: String!) {\n    orderPreview(connectorKey: $connectorKey, accountId: $accountId, data: $data)\n  }\n": typeof types.PlaygroundOrderPreviewDocument,
    "\n  query PlaygroundHooks($connectorKey: String!) {\n    hooks(connectorKey: $connectorKey) {\n      key\n      name\n      accountId\n      rules\n    }\n  }\n": typeof types.PlaygroundHooksDocument,
    "\n  query Providers {\n    providers\n  }\n": typeof types.ProvidersDocument,
    "\n  query UserTokens {\n    userTokens(isUserApp: false) {\n      key\n      suffix\n      createdAt\n      metadata\n    }\n  }\n": typeof types.UserTokensDocument,
    "\n  mutation UserTokenCreate($metadata: JSON) {\n    userTokenCreate(metadata: $metadata) {\n      key\n      secret\n    }\n  }\n": typeof types.UserTokenCreateDocument,
    "\n  mutation UserTokenUpdate($key: String!, $metadata: JSON!) {\n    userTokenUpdate(key: $key, metadata: $metadata) {\n      key\n      suffix\n      createdAt\n      metadata\n    }\n  }\n": typeof types.UserTokenUpdateDocument,
    "\n  mutation UserTokenDelete($key: String!) {\n    userTokenDelete(key: $key)\n  }\n": typeof types.UserTokenDeleteDocument,
    "\n  query AuthorizedApps {\n    userTokens(isUserApp: true) {\n      key\n      createdAt\n      metadata\n      userApp {\n        key\n        name\n      }\n    }\n  }\n": typeof types.AuthorizedAppsDocument,
    "\n  query Site {\n    site {\n      publicUrl\n      supportEmail\n    }\n  }\n": typeof types.SiteDocument,
    "\n  query DashboardOrderStats($interval: String!, $width: Int, $timeZone: String) {\n    actionsOrderStats(interval: $interval, width: $width, timeZone: $timeZone) {\n      createdAt\n      counter\n      counterError\n      counterRefused\n      counterTest\n    }\n  }\n": typeof types.DashboardOrderStatsDocument,
    "\n  query TourConnectorActivations {\n    actions(code: \"ConnectorActivate\", limit: 1) {\n      id\n    }\n  }\n": typeof types.TourConnectorActivationsDocument,
    "\n  query User {\n    user {\n      key\n      group\n      email\n      firstName\n      lastName\n      pendingEmail\n      reamazeAuthKey\n    }\n  }\n": typeof types.UserDocument,
    "\n  mutation UserUpdate($email: String, $firstName: String, $lastName: String) {\n    userUpdate(email: $email, firstName: $firstName, lastName: $lastName) {\n      key\n      group\n      email\n      firstName\n      lastName\n      pendingEmail\n      reamazeAuthKey\n    }\n  }\n": typeof types.UserUpdateDocument,
    "\n  query UserPasscode {\n    userPasscode {\n      secret\n      uri\n      isActive\n      recoveryCodesLeft\n    }\n  }\n": typeof types.UserPasscodeDocument,
    "\n  mutation UserPasscodeUpdate($secret: String!, $passcode: String!) {\n    userPasscodeUpdate(secret: $secret, passcode: $passcode) {\n      secret\n      uri\n      isActive\n      recoveryCodes\n      recoveryCodesLeft\n    }\n  }\n": typeof types.UserPasscodeUpdateDocument,
    "\n  mutation UserRecoveryCodesCreate($passcode: String!) {\n    userRecoveryCodesCreate(passcode: $passcode)\n  }\n": typeof types.UserRecoveryCodesCreateDocument,
    "\n  mutation UserPasswordUpdate($password: String!, $newPassword: String!, $newPassword2: String!) {\n    userPasswordUpdate(password: $password, newPassword: $newPassword, newPassword2: $newPassword2)\n  }\n": typeof types.UserPasswordUpdateDocument,
};
const documents: Documents = {
    "\n  query ActivityActions(\n    $search: String\n    $createdAtFrom: Float\n    $since: Float\n    $result: String\n    $hookKey: String\n    $providerName: String\n    $symbol: String\n    $signalId: String\n    $limit: Int\n  ) {\n    actions(\n      search: $search\n      createdAtFrom: $createdAtFrom\n      since: $since\n      result: $result\n      hookKey: $hookKey\n      providerName: $providerName\n      symbol: $symbol\n      signalId: $signalId\n      limit: $limit\n    ) {\n      id\n      code\n      address\n      metadata\n      createdAt\n      trade {\n        hookKey\n        hookName\n        via\n        providerName\n        symbol\n        side\n        quantity\n        orderType\n        price\n        result\n        repeat\n        checking\n        status\n        elapsedMs\n        phases {\n          parse\n          store\n          broker\n        }\n        brokerOrderId\n        order\n        isTest\n      }\n    }\n  }\n": types.ActivityActionsDocument,
    "\n  query ActivityConnectors {\n    connectors {\n      key\n      providerName\n    }\n  }\n": types.ActivityConnectorsDocument,
    "\n  query ActivityHooks($connectorKey: String!) {\n    hooks(connectorKey: $connectorKey) {\n      key\n      name\n    }\n  }\n": types.ActivityHooksDocument,
    "\n  mutation AdminProxyStart($email: String!) {\n    adminProxyStart(email: $email)\n  }\n": types.AdminProxyStartDocument,
    "\n  mutation AdminProxyEnd($email: String!) {\n    adminProxyEnd(email: $email)\n  }\n": types.AdminProxyEndDocument,
    "\n  mutation AdminAccountReward($email: String!, $credits: Int!, $idempotencyKey: String) {\n    adminAccountReward(email: $email, credits: $credits, idempotencyKey: $idempotencyKey)\n  }\n": types.AdminAccountRewardDocument,
    "\n  mutation AdminReferrerCreate($name: String, $providerName: String, $credits: Int!) {\n    adminReferrerCreate(name: $name, providerName: $providerName, credits: $credits) {\n      code\n    }\n  }\n": types.AdminReferrerCreateDocument,
    "\n  mutation AdminReferrerDelete($referrerCodeOrUrl: String!) {\n    adminReferrerDelete(referrerCodeOrUrl: $referrerCodeOrUrl)\n  }\n": types.AdminReferrerDeleteDocument,
    "\n  query AdminReferrerStatsReport {\n    adminReferrerStatsReport\n  }\n": types.AdminReferrerStatsReportDocument,
    "\n  mutation AdminUserProfessional($email: String!, $isProfessional: Boolean!) {\n    adminUserProfessional(email: $email, isProfessional: $isProfessional) {\n      email\n      group\n    }\n  }\n": types.AdminUserProfessionalDocument,
    "\n  query AdminAuditLog($limit: Int, $createdAtFrom: Float) {\n    adminAuditLog(limit: $limit, createdAtFrom: $createdAtFrom) {\n      id\n      createdAt\n      adminEmail\n      targetEmail\n      action\n      details\n    }\n  }\n": types.AdminAuditLogDocument,
    "\n  query AuthProviders {\n    authProviders {\n      google\n      googleClientId\n      apple\n      appleClientId\n    }\n  }\n": types.AuthProvidersDocument,
    "\n  mutation Signin($type: String!, $credentials: JSON!, $metadata: JSON) {\n    signin(type: $type, credentials: $credentials, metadata: $metadata) {\n      token\n      issuer\n      email\n    }\n  }\n": types.SigninDocument,
    "\n  mutation Signout {\n    signout\n  }\n": types.SignoutDocument,
    "\n  mutation Signup(\n    $type: String!\n    $credentials: JSON!\n    $firstName: String\n    $lastName: String\n    $referrerCode: String\n    $promotionCode: String\n    $stripePriceId: String\n  ) {\n    signup(\n      type: $type\n      credentials: $credentials\n      firstName: $firstName\n      lastName: $lastName\n      referrerCode: $referrerCode\n      promotionCode: $promotionCode\n      stripePriceId: $stripePriceId\n    ) {\n      id\n      email\n      firstName\n    }\n  }\n": types.SignupDocument,
    "\n  mutation AuthPasswordEstimate($password: String!) {\n    authPasswordEstimate(password: $password)\n  }\n": types.AuthPasswordEstimateDocument,
    "\n  mutation AuthPasswordReset($token: String!, $password: String!, $password2: String!, $passcode: String) {\n    authPasswordReset(token: $token, password: $password, password2: $password2, passcode: $passcode)\n  }\n": types.AuthPasswordResetDocument,
    "\n  mutation AuthPasswordResetRequest($email: String!) {\n    authPasswordResetRequest(email: $email)\n  }\n": types.AuthPasswordResetRequestDocument,
    "\n  mutation AuthEmailConfirm($token: String!) {\n    authEmailConfirm(token: $token) {\n      token\n      issuer\n      email\n    }\n  }\n": types.AuthEmailConfirmDocument,
    "\n  query SignupReferrer($code: String!) {\n    signupReferrer(code: $code) {\n      code\n      name\n      credits\n      isActive\n    }\n  }\n": types.SignupReferrerDocument,
    "\n  query CreditsBanner {\n    account {\n      balance\n      lastGrant\n      unlimited\n      cardPayments\n    }\n  }\n": types.CreditsBannerDocument,
    "\n  query AccountCredits {\n    account {\n      type\n      balance\n      credits\n      recurringCredits\n      recurringPeriodCredits\n      recurringPeriodEnd\n      signalsSpent\n      unlimited\n      cardPayments\n      professionalAppliedAt\n      metadata\n      product {\n        name\n        credits\n        price\n        currency\n        interval\n        professional\n      }\n      payments {\n        credits\n        price\n        currency\n        createdAt\n        stripeInvoiceId\n        description\n        interval\n        refunded\n        dispute {\n          status\n          amount\n        }\n      }\n    }\n  }\n": types.AccountCreditsDocument,
    "\n  query AccountProducts {\n    accountProducts {\n      stripePriceId\n      name\n      description\n      credits\n      price\n      currency\n      type\n      interval\n      professional\n    }\n  }\n": types.AccountProductsDocument,
    "\n  query AccountPaymentSession($stripePriceId: String, $coupon: String) {\n    accountPaymentSession(stripePriceId: $stripePriceId, coupon: $coupon) {\n      url\n    }\n  }\n": types.AccountPaymentSessionDocument,
    "\n  query AccountInvoice($id: String!) {\n    accountInvoice(id: $id) {\n      id\n      invoicePdf\n    }\n  }\n": types.AccountInvoiceDocument,
    "\n  query AccountSignupPaymentSession(\n    $email: String!\n    $stripePriceId: String!\n    $successUrl: String\n    $cancelUrl: String\n    $coupon: String\n    $promotionCode: String\n  ) {\n    accountSignupPaymentSession(\n      email: $email\n      stripePriceId: $stripePriceId\n      successUrl: $successUrl\n      cancelUrl: $cancelUrl\n      coupon: $coupon\n      promotionCode: $promotionCode\n    ) {\n      clientSecret\n      total\n      currency\n      description\n      publishableKey\n    }\n  }\n": types.AccountSignupPaymentSessionDocument,
    "\n  mutation AccountUpgrade($metadata: JSON!) {\n    accountUpgrade(metadata: $metadata)\n  }\n": types.AccountUpgradeDocument,
    "\n  query AccountLedger($createdAtFrom: Float) {\n    accountLedger(createdAtFrom: $createdAtFrom) {\n      id\n      createdAt\n      credits\n      cause\n      balanceAfter\n      note\n      dispute\n    }\n  }\n": types.AccountLedgerDocument,
    "\n  query Connectors {\n    connectors {\n      key\n      providerName\n      accounts\n      branch\n      status\n      isActive\n      isDemo\n      expiresAt\n    }\n  }\n": types.ConnectorsDocument,
    "\n  mutation ConnectorCreate($providerName: String!) {\n    connectorCreate(providerName: $providerName) {\n      type\n      credentials\n      referrerBase\n      requestUrl\n      redirectUrl\n      help\n      metadata\n    }\n  }\n": types.ConnectorCreateDocument,
    "\n  mutation ConnectorActivate($providerName: String!, $credentials: [String!]!) {\n    connectorActivate(providerName: $providerName, credentials: $credentials) {\n      key\n      providerName\n      accounts\n      isActive\n      isDemo\n      expiresAt\n    }\n  }\n": types.ConnectorActivateDocument,
    "\n  mutation ConnectorUpdate($key: String!, $accounts: String!) {\n    connectorUpdate(key: $key, accounts: $accounts) {\n      key\n      accounts\n    }\n  }\n": types.ConnectorUpdateDocument,
    "\n  mutation ConnectorDelete($key: String!) {\n    connectorDelete(key: $key)\n  }\n": types.ConnectorDeleteDocument,
    "\n  query ProviderBranches($search: String!) {\n    providerMetatraderBranches(search: $search) {\n      name\n      broker\n      platform\n    }\n  }\n": types.ProviderBranchesDocument,
    "\n  query DashboardConnectors {\n    connectors {\n      key\n      isActive\n      expiresAt\n    }\n  }\n": types.DashboardConnectorsDocument,
    "\n  query DashboardAccount {\n    account {\n      balance\n      unlimited\n    }\n  }\n": types.DashboardAccountDocument,
    "\n  query DashboardOrderCounters {\n    actionsOrderCounters {\n      counter\n      counterTest\n    }\n  }\n": types.DashboardOrderCountersDocument,
    "\n  query UserApps {\n    userApps {\n      key\n      name\n      description\n      redirectUrl\n      createdAt\n    }\n  }\n": types.UserAppsDocument,
    "\n  mutation UserAppCreate($name: String!, $description: String, $redirectUrl: String!) {\n    userAppCreate(name: $name, description: $description, redirectUrl: $redirectUrl) {\n      key\n      secret\n    }\n  }\n": types.UserAppCreateDocument,
    "\n  mutation UserAppDelete($key: String!) {\n    userAppDelete(key: $key)\n  }\n": types.UserAppDeleteDocument,
    "\n  mutation UserAppSecretRotate($key: String!) {\n    userAppSecretRotate(key: $key) {\n      key\n      secret\n    }\n  }\n": types.UserAppSecretRotateDocument,
    "\n  mutation UserAppUpdate($key: String!, $metadata: JSON!) {\n    userAppUpdate(key: $key, metadata: $metadata) {\n      key\n      name\n      description\n      redirectUrl\n      createdAt\n    }\n  }\n": types.UserAppUpdateDocument,
    "\n  query Hooks($connectorKey: String!, $since: Float) {\n    hooks(connectorKey: $connectorKey) {\n      key\n      shortKey\n      url\n      name\n      accountId\n      isActive\n      isTest\n      deactivatedReason\n      calledAt\n      health(since: $since) {\n        calls\n        errorRate\n      }\n      rules\n      pausedReason\n    }\n  }\n": types.HooksDocument,
    "\n  mutation HookCreate($connectorKey: String!, $accountId: String!, $name: String, $isTest: Boolean) {\n    hookCreate(connectorKey: $connectorKey, accountId: $accountId, name: $name, isTest: $isTest) {\n      key\n      shortKey\n      url\n      name\n      accountId\n      isActive\n      isTest\n      deactivatedReason\n      calledAt\n    }\n  }\n": types.HookCreateDocument,
    "\n  mutation HookUpdate($key: String!, $name: String!) {\n    hookUpdate(key: $key, name: $name) {\n      key\n      name\n    }\n  }\n": types.HookUpdateDocument,
    "\n  mutation HookDelete($key: String!) {\n    hookDelete(key: $key)\n  }\n": types.HookDeleteDocument,
    "\n  mutation HookActivate($key: String!) {\n    hookActivate(key: $key) {\n      key\n      isActive\n      deactivatedReason\n    }\n  }\n": types.HookActivateDocument,
    "\n  mutation HookRules($key: String!, $rules: String!) {\n    hookUpdate(key: $key, rules: $rules) {\n      key\n      rules\n    }\n  }\n": types.HookRulesDocument,
    "\n  mutation HooksPause($reason: String!) {\n    hooksPause(reason: $reason)\n  }\n": types.HooksPauseDocument,
    "\n  mutation HooksResume {\n    hooksResume\n  }\n": types.HooksResumeDocument,
    "\n  query QueuedSignals {\n    queuedSignals(limit: 100) {\n      id\n      hookKey\n      status\n      placeAt\n      order\n    }\n  }\n": types.QueuedSignalsDocument,
    "\n  mutation QueuedSignalCancel($id: String!) {\n    queuedSignalCancel(id: $id) {\n      id\n      status\n    }\n  }\n": types.QueuedSignalCancelDocument,
    "\n  subscription Live {\n    live {\n      kind\n      at\n    }\n  }\n": types.LiveDocument,
    "\n  query Notifications($connectorKey: String!, $accountId: String) {\n    notifications(connectorKey: $connectorKey, accountId: $accountId) {\n      key\n      type\n      isEnabled\n      metadata\n      connectorKey\n      accountId\n      disabledReason\n    }\n  }\n": types.NotificationsDocument,
    "\n  query ConnectorNotifications($connectorKey: String!) {\n    notifications(connectorKey: $connectorKey) {\n      key\n      accountId\n    }\n  }\n": types.ConnectorNotificationsDocument,
    "\n  mutation NotificationCreate($connectorKey: String!, $accountId: String!, $type: Int!, $metadata: String!) {\n    notificationCreate(connectorKey: $connectorKey, accountId: $accountId, type: $type, metadata: $metadata) {\n      key\n      secret\n    }\n  }\n": types.NotificationCreateDocument,
    "\n  mutation NotificationUpdate($key: String!, $metadata: String!) {\n    notificationUpdate(key: $key, metadata: $metadata) {\n      key\n    }\n  }\n": types.NotificationUpdateDocument,
    "\n  mutation NotificationDelete($key: String!) {\n    notificationDelete(key: $key)\n  }\n": types.NotificationDeleteDocument,
    "\n  mutation NotificationSecretRotate($key: String!) {\n    notificationSecretRotate(key: $key) {\n      key\n      secret\n    }\n  }\n": types.NotificationSecretRotateDocument,
    "\n  query NotificationDeliveries($connectorKey: String!, $accountId: String!) {\n    notificationDeliveries(connectorKey: $connectorKey, accountId: $accountId) {\n      id\n      notificationKey\n      type\n      eventId\n      event\n      status\n      attempts\n      responseCode\n      error\n      inDigest\n      createdAt\n      lastAttemptAt\n      nextAttemptAt\n    }\n  }\n": types.NotificationDeliveriesDocument,
    "\n  mutation NotificationTest($key: String!) {\n    notificationTest(key: $key) {\n      id\n      status\n    }\n  }\n": types.NotificationTestDocument,
    "\n  mutation NotificationDeliveryResend($id: String!) {\n    notificationDeliveryResend(id: $id) {\n      id\n      status\n    }\n  }\n": types.NotificationDeliveryResendDocument,
    "\n  fragment PaperAccountFields on PaperAccount {\n    connectorKey\n    accountId\n    name\n    currency\n    startingCash\n    cash\n    equity\n    buyingPower\n    asOf\n    resetAt\n    openOrderCount\n    positions {\n      symbol\n      class\n      quantity\n      averagePrice\n      price\n      marketValue\n      unrealizedPnl\n    }\n    openOrders {\n      id\n      clientOrderId\n      symbol\n      class\n      action\n      type\n      quantity\n      limitPrice\n      stopPrice\n      duration\n      statusDescription\n      createdAt\n      legs {\n        symbol\n        action\n        ratio\n      }\n    }\n    fills {\n      id\n      clientOrderId\n      symbol\n      side\n      quantity\n      price\n      filledAt\n      description\n    }\n  }\n": types.PaperAccountFieldsFragmentDoc,
    "\n  query PaperAccount($connectorKey: String!, $accountId: String!) {\n    paperAccount(connectorKey: $connectorKey, accountId: $accountId) {\n      ...PaperAccountFields\n    }\n  }\n": types.PaperAccountDocument,
    "\n  mutation PaperAccountReset($connectorKey: String!, $accountId: String!) {\n    paperAccountReset(connectorKey: $connectorKey, accountId: $accountId) {\n      ...PaperAccountFields\n    }\n  }\n": types.PaperAccountResetDocument,
    "\n  query PlaygroundConnectors {\n    connectors {\n      key\n      providerName\n      accounts\n      isActive\n      isDemo\n    }\n  }\n": types.PlaygroundConnectorsDocument,
    "\n  mutation PlaygroundOrderPreview($connectorKey: String!, $accountId: String, $data: String!) {\n    orderPreview(connectorKey: $connectorKey, accountId: $accountId, data: $data)\n  }\n": types.PlaygroundOrderPreviewDocument,
    "\n  query PlaygroundHooks($connectorKey: String!) {\n    hooks(connectorKey: $connectorKey) {\n      key\n      name\n      accountId\n      rules\n    }\n  }\n": types.PlaygroundHooksDocument,
    "\n  query Providers {\n    providers\n  }\n": types.ProvidersDocument,
    "\n  query UserTokens {\n    userTokens(isUserApp: false) {\n      key\n      suffix\n      createdAt\n      metadata\n    }\n  }\n": types.UserTokensDocument,
    "\n  mutation UserTokenCreate($metadata: JSON) {\n    userTokenCreate(metadata: $metadata) {\n      key\n      secret\n    }\n  }\n": types.UserTokenCreateDocument,
    "\n  mutation UserTokenUpdate($key: String!, $metadata: JSON!) {\n    userTokenUpdate(key: $key, metadata: $metadata) {\n      key\n      suffix\n      createdAt\n      metadata\n    }\n  }\n": types.UserTokenUpdateDocument,
    "\n  mutation UserTokenDelete($key: String!) {\n    userTokenDelete(key: $key)\n  }\n": types.UserTokenDeleteDocument,
    "\n  query AuthorizedApps {\n    userTokens(isUserApp: true) {\n      key\n      createdAt\n      metadata\n      userApp {\n        key\n        name\n      }\n    }\n  }\n": types.AuthorizedAppsDocument,
    "\n  query Site {\n    site {\n      publicUrl\n      supportEmail\n    }\n  }\n": types.SiteDocument,
    "\n  query DashboardOrderStats($interval: String!, $width: Int, $timeZone: String) {\n    actionsOrderStats(interval: $interval, width: $width, timeZone: $timeZone) {\n      createdAt\n      counter\n      counterError\n      counterRefused\n      counterTest\n    }\n  }\n": types.DashboardOrderStatsDocument,
    "\n  query TourConnectorActivations {\n    actions(code: \"ConnectorActivate\", limit: 1) {\n      id\n    }\n  }\n": types.TourConnectorActivationsDocument,
    "\n  query User {\n    user {\n      key\n      group\n      email\n      firstName\n      lastName\n      pendingEmail\n      reamazeAuthKey\n    }\n  }\n": types.UserDocument,
    "\n  mutation UserUpdate($email: String, $firstName: String, $lastName: String) {\n    userUpdate(email: $email, firstName: $firstName, lastName: $lastName) {\n      key\n      group\n      email\n      firstName\n      lastName\n      pendingEmail\n      reamazeAuthKey\n    }\n  }\n": types.UserUpdateDocument,
    "\n  query UserPasscode {\n    userPasscode {\n      secret\n      uri\n      isActive\n      recoveryCodesLeft\n    }\n  }\n": types.UserPasscodeDocument,
    "\n  mutation UserPasscodeUpdate($secret: String!, $passcode: String!) {\n    userPasscodeUpdate(secret: $secret, passcode: $passcode) {\n      secret\n      uri\n      isActive\n      recoveryCodes\n      recoveryCodesLeft\n    }\n  }\n": types.UserPasscodeUpdateDocument,
    "\n  mutation UserRecoveryCodesCreate($passcode: String!) {\n    userRecoveryCodesCreate(passcode: $passcode)\n  }\n": types.UserRecoveryCodesCreateDocument,
    "\n  mutation UserPasswordUpdate($password: String!, $newPassword: String!, $newPassword2: String!) {\n    userPasswordUpdate(password: $password, newPassword: $newPassword, newPassword2: $newPassword2)\n  }\n": types.UserPasswordUpdateDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ActivityActions(\n    $search: String\n    $createdAtFrom: Float\n    $since: Float\n    $result: String\n    $hookKey: String\n    $providerName: String\n    $symbol: String\n    $signalId: String\n    $limit: Int\n  ) {\n    actions(\n      search: $search\n      createdAtFrom: $createdAtFrom\n      since: $since\n      result: $result\n      hookKey: $hookKey\n      providerName: $providerName\n      symbol: $symbol\n      signalId: $signalId\n      limit: $limit\n    ) {\n      id\n      code\n      address\n      metadata\n      createdAt\n      trade {\n        hookKey\n        hookName\n        via\n        providerName\n        symbol\n        side\n        quantity\n        orderType\n        price\n        result\n        repeat\n        checking\n        status\n        elapsedMs\n        phases {\n          parse\n          store\n          broker\n        }\n        brokerOrderId\n        order\n        isTest\n      }\n    }\n  }\n"): (typeof documents)["\n  query ActivityActions(\n    $search: String\n    $createdAtFrom: Float\n    $since: Float\n    $result: String\n    $hookKey: String\n    $providerName: String\n    $symbol: String\n    $signalId: String\n    $limit: Int\n  ) {\n    actions(\n      search: $search\n      createdAtFrom: $createdAtFrom\n      since: $since\n      result: $result\n      hookKey: $hookKey\n      providerName: $providerName\n      symbol: $symbol\n      signalId: $signalId\n      limit: $limit\n    ) {\n      id\n      code\n      address\n      metadata\n      createdAt\n      trade {\n        hookKey\n        hookName\n        via\n        providerName\n        symbol\n        side\n        quantity\n        orderType\n        price\n        result\n        repeat\n        checking\n        status\n        elapsedMs\n        phases {\n          parse\n          store\n          broker\n        }\n        brokerOrderId\n        order\n        isTest\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ActivityConnectors {\n    connectors {\n      key\n      providerName\n    }\n  }\n"): (typeof documents)["\n  query ActivityConnectors {\n    connectors {\n      key\n      providerName\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ActivityHooks($connectorKey: String!) {\n    hooks(connectorKey: $connectorKey) {\n      key\n      name\n    }\n  }\n"): (typeof documents)["\n  query ActivityHooks($connectorKey: String!) {\n    hooks(connectorKey: $connectorKey) {\n      key\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdminProxyStart($email: String!) {\n    adminProxyStart(email: $email)\n  }\n"): (typeof documents)["\n  mutation AdminProxyStart($email: String!) {\n    adminProxyStart(email: $email)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdminProxyEnd($email: String!) {\n    adminProxyEnd(email: $email)\n  }\n"): (typeof documents)["\n  mutation AdminProxyEnd($email: String!) {\n    adminProxyEnd(email: $email)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdminAccountReward($email: String!, $credits: Int!, $idempotencyKey: String) {\n    adminAccountReward(email: $email, credits: $credits, idempotencyKey: $idempotencyKey)\n  }\n"): (typeof documents)["\n  mutation AdminAccountReward($email: String!, $credits: Int!, $idempotencyKey: String) {\n    adminAccountReward(email: $email, credits: $credits, idempotencyKey: $idempotencyKey)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdminReferrerCreate($name: String, $providerName: String, $credits: Int!) {\n    adminReferrerCreate(name: $name, providerName: $providerName, credits: $credits) {\n      code\n    }\n  }\n"): (typeof documents)["\n  mutation AdminReferrerCreate($name: String, $providerName: String, $credits: Int!) {\n    adminReferrerCreate(name: $name, providerName: $providerName, credits: $credits) {\n      code\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdminReferrerDelete($referrerCodeOrUrl: String!) {\n    adminReferrerDelete(referrerCodeOrUrl: $referrerCodeOrUrl)\n  }\n"): (typeof documents)["\n  mutation AdminReferrerDelete($referrerCodeOrUrl: String!) {\n    adminReferrerDelete(referrerCodeOrUrl: $referrerCodeOrUrl)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AdminReferrerStatsReport {\n    adminReferrerStatsReport\n  }\n"): (typeof documents)["\n  query AdminReferrerStatsReport {\n    adminReferrerStatsReport\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdminUserProfessional($email: String!, $isProfessional: Boolean!) {\n    adminUserProfessional(email: $email, isProfessional: $isProfessional) {\n      email\n      group\n    }\n  }\n"): (typeof documents)["\n  mutation AdminUserProfessional($email: String!, $isProfessional: Boolean!) {\n    adminUserProfessional(email: $email, isProfessional: $isProfessional) {\n      email\n      group\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AdminAuditLog($limit: Int, $createdAtFrom: Float) {\n    adminAuditLog(limit: $limit, createdAtFrom: $createdAtFrom) {\n      id\n      createdAt\n      adminEmail\n      targetEmail\n      action\n      details\n    }\n  }\n"): (typeof documents)["\n  query AdminAuditLog($limit: Int, $createdAtFrom: Float) {\n    adminAuditLog(limit: $limit, createdAtFrom: $createdAtFrom) {\n      id\n      createdAt\n      adminEmail\n      targetEmail\n      action\n      details\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuthProviders {\n    authProviders {\n      google\n      googleClientId\n      apple\n      appleClientId\n    }\n  }\n"): (typeof documents)["\n  query AuthProviders {\n    authProviders {\n      google\n      googleClientId\n      apple\n      appleClientId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Signin($type: String!, $credentials: JSON!, $metadata: JSON) {\n    signin(type: $type, credentials: $credentials, metadata: $metadata) {\n      token\n      issuer\n      email\n    }\n  }\n"): (typeof documents)["\n  mutation Signin($type: String!, $credentials: JSON!, $metadata: JSON) {\n    signin(type: $type, credentials: $credentials, metadata: $metadata) {\n      token\n      issuer\n      email\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Signout {\n    signout\n  }\n"): (typeof documents)["\n  mutation Signout {\n    signout\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Signup(\n    $type: String!\n    $credentials: JSON!\n    $firstName: String\n    $lastName: String\n    $referrerCode: String\n    $promotionCode: String\n    $stripePriceId: String\n  ) {\n    signup(\n      type: $type\n      credentials: $credentials\n      firstName: $firstName\n      lastName: $lastName\n      referrerCode: $referrerCode\n      promotionCode: $promotionCode\n      stripePriceId: $stripePriceId\n    ) {\n      id\n      email\n      firstName\n    }\n  }\n"): (typeof documents)["\n  mutation Signup(\n    $type: String!\n    $credentials: JSON!\n    $firstName: String\n    $lastName: String\n    $referrerCode: String\n    $promotionCode: String\n    $stripePriceId: String\n  ) {\n    signup(\n      type: $type\n      credentials: $credentials\n      firstName: $firstName\n      lastName: $lastName\n      referrerCode: $referrerCode\n      promotionCode: $promotionCode\n      stripePriceId: $stripePriceId\n    ) {\n      id\n      email\n      firstName\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AuthPasswordEstimate($password: String!) {\n    authPasswordEstimate(password: $password)\n  }\n"): (typeof documents)["\n  mutation AuthPasswordEstimate($password: String!) {\n    authPasswordEstimate(password: $password)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AuthPasswordReset($token: String!, $password: String!, $password2: String!, $passcode: String) {\n    authPasswordReset(token: $token, password: $password, password2: $password2, passcode: $passcode)\n  }\n"): (typeof documents)["\n  mutation AuthPasswordReset($token: String!, $password: String!, $password2: String!, $passcode: String) {\n    authPasswordReset(token: $token, password: $password, password2: $password2, passcode: $passcode)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AuthPasswordResetRequest($email: String!) {\n    authPasswordResetRequest(email: $email)\n  }\n"): (typeof documents)["\n  mutation AuthPasswordResetRequest($email: String!) {\n    authPasswordResetRequest(email: $email)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AuthEmailConfirm($token: String!) {\n    authEmailConfirm(token: $token) {\n      token\n      issuer\n      email\n    }\n  }\n"): (typeof documents)["\n  mutation AuthEmailConfirm($token: String!) {\n    authEmailConfirm(token: $token) {\n      token\n      issuer\n      email\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SignupReferrer($code: String!) {\n    signupReferrer(code: $code) {\n      code\n      name\n      credits\n      isActive\n    }\n  }\n"): (typeof documents)["\n  query SignupReferrer($code: String!) {\n    signupReferrer(code: $code) {\n      code\n      name\n      credits\n      isActive\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CreditsBanner {\n    account {\n      balance\n      lastGrant\n      unlimited\n      cardPayments\n    }\n  }\n"): (typeof documents)["\n  query CreditsBanner {\n    account {\n      balance\n      lastGrant\n      unlimited\n      cardPayments\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AccountCredits {\n    account {\n      type\n      balance\n      credits\n      recurringCredits\n      recurringPeriodCredits\n      recurringPeriodEnd\n      signalsSpent\n      unlimited\n      cardPayments\n      professionalAppliedAt\n      metadata\n      product {\n        name\n        credits\n        price\n        currency\n        interval\n        professional\n      }\n      payments {\n        credits\n        price\n        currency\n        createdAt\n        stripeInvoiceId\n        description\n        interval\n        refunded\n        dispute {\n          status\n          amount\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query AccountCredits {\n    account {\n      type\n      balance\n      credits\n      recurringCredits\n      recurringPeriodCredits\n      recurringPeriodEnd\n      signalsSpent\n      unlimited\n      cardPayments\n      professionalAppliedAt\n      metadata\n      product {\n        name\n        credits\n        price\n        currency\n        interval\n        professional\n      }\n      payments {\n        credits\n        price\n        currency\n        createdAt\n        stripeInvoiceId\n        description\n        interval\n        refunded\n        dispute {\n          status\n          amount\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AccountProducts {\n    accountProducts {\n      stripePriceId\n      name\n      description\n      credits\n      price\n      currency\n      type\n      interval\n      professional\n    }\n  }\n"): (typeof documents)["\n  query AccountProducts {\n    accountProducts {\n      stripePriceId\n      name\n      description\n      credits\n      price\n      currency\n      type\n      interval\n      professional\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AccountPaymentSession($stripePriceId: String, $coupon: String) {\n    accountPaymentSession(stripePriceId: $stripePriceId, coupon: $coupon) {\n      url\n    }\n  }\n"): (typeof documents)["\n  query AccountPaymentSession($stripePriceId: String, $coupon: String) {\n    accountPaymentSession(stripePriceId: $stripePriceId, coupon: $coupon) {\n      url\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AccountInvoice($id: String!) {\n    accountInvoice(id: $id) {\n      id\n      invoicePdf\n    }\n  }\n"): (typeof documents)["\n  query AccountInvoice($id: String!) {\n    accountInvoice(id: $id) {\n      id\n      invoicePdf\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AccountSignupPaymentSession(\n    $email: String!\n    $stripePriceId: String!\n    $successUrl: String\n    $cancelUrl: String\n    $coupon: String\n    $promotionCode: String\n  ) {\n    accountSignupPaymentSession(\n      email: $email\n      stripePriceId: $stripePriceId\n      successUrl: $successUrl\n      cancelUrl: $cancelUrl\n      coupon: $coupon\n      promotionCode: $promotionCode\n    ) {\n      clientSecret\n      total\n      currency\n      description\n      publishableKey\n    }\n  }\n"): (typeof documents)["\n  query AccountSignupPaymentSession(\n    $email: String!\n    $stripePriceId: String!\n    $successUrl: String\n    $cancelUrl: String\n    $coupon: String\n    $promotionCode: String\n  ) {\n    accountSignupPaymentSession(\n      email: $email\n      stripePriceId: $stripePriceId\n      successUrl: $successUrl\n      cancelUrl: $cancelUrl\n      coupon: $coupon\n      promotionCode: $promotionCode\n    ) {\n      clientSecret\n      total\n      currency\n      description\n      publishableKey\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AccountUpgrade($metadata: JSON!) {\n    accountUpgrade(metadata: $metadata)\n  }\n"): (typeof documents)["\n  mutation AccountUpgrade($metadata: JSON!) {\n    accountUpgrade(metadata: $metadata)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AccountLedger($createdAtFrom: Float) {\n    accountLedger(createdAtFrom: $createdAtFrom) {\n      id\n      createdAt\n      credits\n      cause\n      balanceAfter\n      note\n      dispute\n    }\n  }\n"): (typeof documents)["\n  query AccountLedger($createdAtFrom: Float) {\n    accountLedger(createdAtFrom: $createdAtFrom) {\n      id\n      createdAt\n      credits\n      cause\n      balanceAfter\n      note\n      dispute\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Connectors {\n    connectors {\n      key\n      providerName\n      accounts\n      branch\n      status\n      isActive\n      isDemo\n      expiresAt\n    }\n  }\n"): (typeof documents)["\n  query Connectors {\n    connectors {\n      key\n      providerName\n      accounts\n      branch\n      status\n      isActive\n      isDemo\n      expiresAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConnectorCreate($providerName: String!) {\n    connectorCreate(providerName: $providerName) {\n      type\n      credentials\n      referrerBase\n      requestUrl\n      redirectUrl\n      help\n      metadata\n    }\n  }\n"): (typeof documents)["\n  mutation ConnectorCreate($providerName: String!) {\n    connectorCreate(providerName: $providerName) {\n      type\n      credentials\n      referrerBase\n      requestUrl\n      redirectUrl\n      help\n      metadata\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConnectorActivate($providerName: String!, $credentials: [String!]!) {\n    connectorActivate(providerName: $providerName, credentials: $credentials) {\n      key\n      providerName\n      accounts\n      isActive\n      isDemo\n      expiresAt\n    }\n  }\n"): (typeof documents)["\n  mutation ConnectorActivate($providerName: String!, $credentials: [String!]!) {\n    connectorActivate(providerName: $providerName, credentials: $credentials) {\n      key\n      providerName\n      accounts\n      isActive\n      isDemo\n      expiresAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConnectorUpdate($key: String!, $accounts: String!) {\n    connectorUpdate(key: $key, accounts: $accounts) {\n      key\n      accounts\n    }\n  }\n"): (typeof documents)["\n  mutation ConnectorUpdate($key: String!, $accounts: String!) {\n    connectorUpdate(key: $key, accounts: $accounts) {\n      key\n      accounts\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConnectorDelete($key: String!) {\n    connectorDelete(key: $key)\n  }\n"): (typeof documents)["\n  mutation ConnectorDelete($key: String!) {\n    connectorDelete(key: $key)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProviderBranches($search: String!) {\n    providerMetatraderBranches(search: $search) {\n      name\n      broker\n      platform\n    }\n  }\n"): (typeof documents)["\n  query ProviderBranches($search: String!) {\n    providerMetatraderBranches(search: $search) {\n      name\n      broker\n      platform\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardConnectors {\n    connectors {\n      key\n      isActive\n      expiresAt\n    }\n  }\n"): (typeof documents)["\n  query DashboardConnectors {\n    connectors {\n      key\n      isActive\n      expiresAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardAccount {\n    account {\n      balance\n      unlimited\n    }\n  }\n"): (typeof documents)["\n  query DashboardAccount {\n    account {\n      balance\n      unlimited\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOrderCounters {\n    actionsOrderCounters {\n      counter\n      counterTest\n    }\n  }\n"): (typeof documents)["\n  query DashboardOrderCounters {\n    actionsOrderCounters {\n      counter\n      counterTest\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UserApps {\n    userApps {\n      key\n      name\n      description\n      redirectUrl\n      createdAt\n    }\n  }\n"): (typeof documents)["\n  query UserApps {\n    userApps {\n      key\n      name\n      description\n      redirectUrl\n      createdAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UserAppCreate($name: String!, $description: String, $redirectUrl: String!) {\n    userAppCreate(name: $name, description: $description, redirectUrl: $redirectUrl) {\n      key\n      secret\n    }\n  }\n"): (typeof documents)["\n  mutation UserAppCreate($name: String!, $description: String, $redirectUrl: String!) {\n    userAppCreate(name: $name, description: $description, redirectUrl: $redirectUrl) {\n      key\n      secret\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UserAppDelete($key: String!) {\n    userAppDelete(key: $key)\n  }\n"): (typeof documents)["\n  mutation UserAppDelete($key: String!) {\n    userAppDelete(key: $key)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UserAppSecretRotate($key: String!) {\n    userAppSecretRotate(key: $key) {\n      key\n      secret\n    }\n  }\n"): (typeof documents)["\n  mutation UserAppSecretRotate($key: String!) {\n    userAppSecretRotate(key: $key) {\n      key\n      secret\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UserAppUpdate($key: String!, $metadata: JSON!) {\n    userAppUpdate(key: $key, metadata: $metadata) {\n      key\n      name\n      description\n      redirectUrl\n      createdAt\n    }\n  }\n"): (typeof documents)["\n  mutation UserAppUpdate($key: String!, $metadata: JSON!) {\n    userAppUpdate(key: $key, metadata: $metadata) {\n      key\n      name\n      description\n      redirectUrl\n      createdAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Hooks($connectorKey: String!, $since: Float) {\n    hooks(connectorKey: $connectorKey) {\n      key\n      shortKey\n      url\n      name\n      accountId\n      isActive\n      isTest\n      deactivatedReason\n      calledAt\n      health(since: $since) {\n        calls\n        errorRate\n      }\n      rules\n      pausedReason\n    }\n  }\n"): (typeof documents)["\n  query Hooks($connectorKey: String!, $since: Float) {\n    hooks(connectorKey: $connectorKey) {\n      key\n      shortKey\n      url\n      name\n      accountId\n      isActive\n      isTest\n      deactivatedReason\n      calledAt\n      health(since: $since) {\n        calls\n        errorRate\n      }\n      rules\n      pausedReason\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation HookCreate($connectorKey: String!, $accountId: String!, $name: String, $isTest: Boolean) {\n    hookCreate(connectorKey: $connectorKey, accountId: $accountId, name: $name, isTest: $isTest) {\n      key\n      shortKey\n      url\n      name\n      accountId\n      isActive\n      isTest\n      deactivatedReason\n      calledAt\n    }\n  }\n"): (typeof documents)["\n  mutation HookCreate($connectorKey: String!, $accountId: String!, $name: String, $isTest: Boolean) {\n    hookCreate(connectorKey: $connectorKey, accountId: $accountId, name: $name, isTest: $isTest) {\n      key\n      shortKey\n      url\n      name\n      accountId\n      isActive\n      isTest\n      deactivatedReason\n      calledAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation HookUpdate($key: String!, $name: String!) {\n    hookUpdate(key: $key, name: $name) {\n      key\n      name\n    }\n  }\n"): (typeof documents)["\n  mutation HookUpdate($key: String!, $name: String!) {\n    hookUpdate(key: $key, name: $name) {\n      key\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation HookDelete($key: String!) {\n    hookDelete(key: $key)\n  }\n"): (typeof documents)["\n  mutation HookDelete($key: String!) {\n    hookDelete(key: $key)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation HookActivate($key: String!) {\n    hookActivate(key: $key) {\n      key\n      isActive\n      deactivatedReason\n    }\n  }\n"): (typeof documents)["\n  mutation HookActivate($key: String!) {\n    hookActivate(key: $key) {\n      key\n      isActive\n      deactivatedReason\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation HookRules($key: String!, $rules: String!) {\n    hookUpdate(key: $key, rules: $rules) {\n      key\n      rules\n    }\n  }\n"): (typeof documents)["\n  mutation HookRules($key: String!, $rules: String!) {\n    hookUpdate(key: $key, rules: $rules) {\n      key\n      rules\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation HooksPause($reason: String!) {\n    hooksPause(reason: $reason)\n  }\n"): (typeof documents)["\n  mutation HooksPause($reason: String!) {\n    hooksPause(reason: $reason)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation HooksResume {\n    hooksResume\n  }\n"): (typeof documents)["\n  mutation HooksResume {\n    hooksResume\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query QueuedSignals {\n    queuedSignals(limit: 100) {\n      id\n      hookKey\n      status\n      placeAt\n      order\n    }\n  }\n"): (typeof documents)["\n  query QueuedSignals {\n    queuedSignals(limit: 100) {\n      id\n      hookKey\n      status\n      placeAt\n      order\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation QueuedSignalCancel($id: String!) {\n    queuedSignalCancel(id: $id) {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation QueuedSignalCancel($id: String!) {\n    queuedSignalCancel(id: $id) {\n      id\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription Live {\n    live {\n      kind\n      at\n    }\n  }\n"): (typeof documents)["\n  subscription Live {\n    live {\n      kind\n      at\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Notifications($connectorKey: String!, $accountId: String) {\n    notifications(connectorKey: $connectorKey, accountId: $accountId) {\n      key\n      type\n      isEnabled\n      metadata\n      connectorKey\n      accountId\n      disabledReason\n    }\n  }\n"): (typeof documents)["\n  query Notifications($connectorKey: String!, $accountId: String) {\n    notifications(connectorKey: $connectorKey, accountId: $accountId) {\n      key\n      type\n      isEnabled\n      metadata\n      connectorKey\n      accountId\n      disabledReason\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConnectorNotifications($connectorKey: String!) {\n    notifications(connectorKey: $connectorKey) {\n      key\n      accountId\n    }\n  }\n"): (typeof documents)["\n  query ConnectorNotifications($connectorKey: String!) {\n    notifications(connectorKey: $connectorKey) {\n      key\n      accountId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation NotificationCreate($connectorKey: String!, $accountId: String!, $type: Int!, $metadata: String!) {\n    notificationCreate(connectorKey: $connectorKey, accountId: $accountId, type: $type, metadata: $metadata) {\n      key\n      secret\n    }\n  }\n"): (typeof documents)["\n  mutation NotificationCreate($connectorKey: String!, $accountId: String!, $type: Int!, $metadata: String!) {\n    notificationCreate(connectorKey: $connectorKey, accountId: $accountId, type: $type, metadata: $metadata) {\n      key\n      secret\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation NotificationUpdate($key: String!, $metadata: String!) {\n    notificationUpdate(key: $key, metadata: $metadata) {\n      key\n    }\n  }\n"): (typeof documents)["\n  mutation NotificationUpdate($key: String!, $metadata: String!) {\n    notificationUpdate(key: $key, metadata: $metadata) {\n      key\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation NotificationDelete($key: String!) {\n    notificationDelete(key: $key)\n  }\n"): (typeof documents)["\n  mutation NotificationDelete($key: String!) {\n    notificationDelete(key: $key)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation NotificationSecretRotate($key: String!) {\n    notificationSecretRotate(key: $key) {\n      key\n      secret\n    }\n  }\n"): (typeof documents)["\n  mutation NotificationSecretRotate($key: String!) {\n    notificationSecretRotate(key: $key) {\n      key\n      secret\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NotificationDeliveries($connectorKey: String!, $accountId: String!) {\n    notificationDeliveries(connectorKey: $connectorKey, accountId: $accountId) {\n      id\n      notificationKey\n      type\n      eventId\n      event\n      status\n      attempts\n      responseCode\n      error\n      inDigest\n      createdAt\n      lastAttemptAt\n      nextAttemptAt\n    }\n  }\n"): (typeof documents)["\n  query NotificationDeliveries($connectorKey: String!, $accountId: String!) {\n    notificationDeliveries(connectorKey: $connectorKey, accountId: $accountId) {\n      id\n      notificationKey\n      type\n      eventId\n      event\n      status\n      attempts\n      responseCode\n      error\n      inDigest\n      createdAt\n      lastAttemptAt\n      nextAttemptAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation NotificationTest($key: String!) {\n    notificationTest(key: $key) {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation NotificationTest($key: String!) {\n    notificationTest(key: $key) {\n      id\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation NotificationDeliveryResend($id: String!) {\n    notificationDeliveryResend(id: $id) {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation NotificationDeliveryResend($id: String!) {\n    notificationDeliveryResend(id: $id) {\n      id\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment PaperAccountFields on PaperAccount {\n    connectorKey\n    accountId\n    name\n    currency\n    startingCash\n    cash\n    equity\n    buyingPower\n    asOf\n    resetAt\n    openOrderCount\n    positions {\n      symbol\n      class\n      quantity\n      averagePrice\n      price\n      marketValue\n      unrealizedPnl\n    }\n    openOrders {\n      id\n      clientOrderId\n      symbol\n      class\n      action\n      type\n      quantity\n      limitPrice\n      stopPrice\n      duration\n      statusDescription\n      createdAt\n      legs {\n        symbol\n        action\n        ratio\n      }\n    }\n    fills {\n      id\n      clientOrderId\n      symbol\n      side\n      quantity\n      price\n      filledAt\n      description\n    }\n  }\n"): (typeof documents)["\n  fragment PaperAccountFields on PaperAccount {\n    connectorKey\n    accountId\n    name\n    currency\n    startingCash\n    cash\n    equity\n    buyingPower\n    asOf\n    resetAt\n    openOrderCount\n    positions {\n      symbol\n      class\n      quantity\n      averagePrice\n      price\n      marketValue\n      unrealizedPnl\n    }\n    openOrders {\n      id\n      clientOrderId\n      symbol\n      class\n      action\n      type\n      quantity\n      limitPrice\n      stopPrice\n      duration\n      statusDescription\n      createdAt\n      legs {\n        symbol\n        action\n        ratio\n      }\n    }\n    fills {\n      id\n      clientOrderId\n      symbol\n      side\n      quantity\n      price\n      filledAt\n      description\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PaperAccount($connectorKey: String!, $accountId: String!) {\n    paperAccount(connectorKey: $connectorKey, accountId: $accountId) {\n      ...PaperAccountFields\n    }\n  }\n"): (typeof documents)["\n  query PaperAccount($connectorKey: String!, $accountId: String!) {\n    paperAccount(connectorKey: $connectorKey, accountId: $accountId) {\n      ...PaperAccountFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PaperAccountReset($connectorKey: String!, $accountId: String!) {\n    paperAccountReset(connectorKey: $connectorKey, accountId: $accountId) {\n      ...PaperAccountFields\n    }\n  }\n"): (typeof documents)["\n  mutation PaperAccountReset($connectorKey: String!, $accountId: String!) {\n    paperAccountReset(connectorKey: $connectorKey, accountId: $accountId) {\n      ...PaperAccountFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PlaygroundConnectors {\n    connectors {\n      key\n      providerName\n      accounts\n      isActive\n      isDemo\n    }\n  }\n"): (typeof documents)["\n  query PlaygroundConnectors {\n    connectors {\n      key\n      providerName\n      accounts\n      isActive\n      isDemo\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PlaygroundOrderPreview($connectorKey: String!, $accountId: String, $data: String!) {\n    orderPreview(connectorKey: $connectorKey, accountId: $accountId, data: $data)\n  }\n"): (typeof documents)["\n  mutation PlaygroundOrderPreview($connectorKey: String!, $accountId: String, $data: String!) {\n    orderPreview(connectorKey: $connectorKey, accountId: $accountId, data: $data)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PlaygroundHooks($connectorKey: String!) {\n    hooks(connectorKey: $connectorKey) {\n      key\n      name\n      accountId\n      rules\n    }\n  }\n"): (typeof documents)["\n  query PlaygroundHooks($connectorKey: String!) {\n    hooks(connectorKey: $connectorKey) {\n      key\n      name\n      accountId\n      rules\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Providers {\n    providers\n  }\n"): (typeof documents)["\n  query Providers {\n    providers\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UserTokens {\n    userTokens(isUserApp: false) {\n      key\n      suffix\n      createdAt\n      metadata\n    }\n  }\n"): (typeof documents)["\n  query UserTokens {\n    userTokens(isUserApp: false) {\n      key\n      suffix\n      createdAt\n      metadata\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UserTokenCreate($metadata: JSON) {\n    userTokenCreate(metadata: $metadata) {\n      key\n      secret\n    }\n  }\n"): (typeof documents)["\n  mutation UserTokenCreate($metadata: JSON) {\n    userTokenCreate(metadata: $metadata) {\n      key\n      secret\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UserTokenUpdate($key: String!, $metadata: JSON!) {\n    userTokenUpdate(key: $key, metadata: $metadata) {\n      key\n      suffix\n      createdAt\n      metadata\n    }\n  }\n"): (typeof documents)["\n  mutation UserTokenUpdate($key: String!, $metadata: JSON!) {\n    userTokenUpdate(key: $key, metadata: $metadata) {\n      key\n      suffix\n      createdAt\n      metadata\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UserTokenDelete($key: String!) {\n    userTokenDelete(key: $key)\n  }\n"): (typeof documents)["\n  mutation UserTokenDelete($key: String!) {\n    userTokenDelete(key: $key)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuthorizedApps {\n    userTokens(isUserApp: true) {\n      key\n      createdAt\n      metadata\n      userApp {\n        key\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  query AuthorizedApps {\n    userTokens(isUserApp: true) {\n      key\n      createdAt\n      metadata\n      userApp {\n        key\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Site {\n    site {\n      publicUrl\n      supportEmail\n    }\n  }\n"): (typeof documents)["\n  query Site {\n    site {\n      publicUrl\n      supportEmail\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOrderStats($interval: String!, $width: Int, $timeZone: String) {\n    actionsOrderStats(interval: $interval, width: $width, timeZone: $timeZone) {\n      createdAt\n      counter\n      counterError\n      counterRefused\n      counterTest\n    }\n  }\n"): (typeof documents)["\n  query DashboardOrderStats($interval: String!, $width: Int, $timeZone: String) {\n    actionsOrderStats(interval: $interval, width: $width, timeZone: $timeZone) {\n      createdAt\n      counter\n      counterError\n      counterRefused\n      counterTest\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TourConnectorActivations {\n    actions(code: \"ConnectorActivate\", limit: 1) {\n      id\n    }\n  }\n"): (typeof documents)["\n  query TourConnectorActivations {\n    actions(code: \"ConnectorActivate\", limit: 1) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query User {\n    user {\n      key\n      group\n      email\n      firstName\n      lastName\n      pendingEmail\n      reamazeAuthKey\n    }\n  }\n"): (typeof documents)["\n  query User {\n    user {\n      key\n      group\n      email\n      firstName\n      lastName\n      pendingEmail\n      reamazeAuthKey\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UserUpdate($email: String, $firstName: String, $lastName: String) {\n    userUpdate(email: $email, firstName: $firstName, lastName: $lastName) {\n      key\n      group\n      email\n      firstName\n      lastName\n      pendingEmail\n      reamazeAuthKey\n    }\n  }\n"): (typeof documents)["\n  mutation UserUpdate($email: String, $firstName: String, $lastName: String) {\n    userUpdate(email: $email, firstName: $firstName, lastName: $lastName) {\n      key\n      group\n      email\n      firstName\n      lastName\n      pendingEmail\n      reamazeAuthKey\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UserPasscode {\n    userPasscode {\n      secret\n      uri\n      isActive\n      recoveryCodesLeft\n    }\n  }\n"): (typeof documents)["\n  query UserPasscode {\n    userPasscode {\n      secret\n      uri\n      isActive\n      recoveryCodesLeft\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UserPasscodeUpdate($secret: String!, $passcode: String!) {\n    userPasscodeUpdate(secret: $secret, passcode: $passcode) {\n      secret\n      uri\n      isActive\n      recoveryCodes\n      recoveryCodesLeft\n    }\n  }\n"): (typeof documents)["\n  mutation UserPasscodeUpdate($secret: String!, $passcode: String!) {\n    userPasscodeUpdate(secret: $secret, passcode: $passcode) {\n      secret\n      uri\n      isActive\n      recoveryCodes\n      recoveryCodesLeft\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UserRecoveryCodesCreate($passcode: String!) {\n    userRecoveryCodesCreate(passcode: $passcode)\n  }\n"): (typeof documents)["\n  mutation UserRecoveryCodesCreate($passcode: String!) {\n    userRecoveryCodesCreate(passcode: $passcode)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UserPasswordUpdate($password: String!, $newPassword: String!, $newPassword2: String!) {\n    userPasswordUpdate(password: $password, newPassword: $newPassword, newPassword2: $newPassword2)\n  }\n"): (typeof documents)["\n  mutation UserPasswordUpdate($password: String!, $newPassword: String!, $newPassword2: String!) {\n    userPasswordUpdate(password: $password, newPassword: $newPassword, newPassword2: $newPassword2)\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;