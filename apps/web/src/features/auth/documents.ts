import { graphql } from '../../gql/index.ts';

/** Which social sign-in buttons this server accepts (and their client ids). */
export const AuthProvidersDocument = graphql(`
  query AuthProviders {
    authProviders {
      google
      googleClientId
      apple
      appleClientId
    }
  }
`);

/**
 * SPEC §7 signin: type 'password' {email, password}, 'token' {issuer, token}, 'passcode'
 * {passcode} or 'recovery' {code} (the last two with the identity token as Bearer).
 */
export const SigninDocument = graphql(`
  mutation Signin($type: String!, $credentials: JSON!, $metadata: JSON) {
    signin(type: $type, credentials: $credentials, metadata: $metadata) {
      token
      issuer
      email
    }
  }
`);

export const SignoutDocument = graphql(`
  mutation Signout {
    signout
  }
`);

export const SignupDocument = graphql(`
  mutation Signup(
    $type: String!
    $credentials: JSON!
    $firstName: String
    $lastName: String
    $referrerCode: String
    $promotionCode: String
    $stripePriceId: String
  ) {
    signup(
      type: $type
      credentials: $credentials
      firstName: $firstName
      lastName: $lastName
      referrerCode: $referrerCode
      promotionCode: $promotionCode
      stripePriceId: $stripePriceId
    ) {
      id
      email
      firstName
    }
  }
`);

export const PasswordEstimateDocument = graphql(`
  mutation AuthPasswordEstimate($password: String!) {
    authPasswordEstimate(password: $password)
  }
`);

export const PasswordResetDocument = graphql(`
  mutation AuthPasswordReset($token: String!, $password: String!, $password2: String!, $passcode: String) {
    authPasswordReset(token: $token, password: $password, password2: $password2, passcode: $passcode)
  }
`);

export const PasswordResetRequestDocument = graphql(`
  mutation AuthPasswordResetRequest($email: String!) {
    authPasswordResetRequest(email: $email)
  }
`);

export const EmailConfirmDocument = graphql(`
  mutation AuthEmailConfirm($token: String!) {
    authEmailConfirm(token: $token) {
      token
      issuer
      email
    }
  }
`);
