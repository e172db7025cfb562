import { graphql } from '../../gql/index.ts';

/** The signed-in (or proxied) user; always fetched network-only (SPEC §4 Session, §7). */
export const UserDocument = graphql(`
  query User {
    user {
      key
      group
      email
      firstName
      lastName
      reamazeAuthKey
    }
  }
`);

/** Omitted fields stay; a new email applies once the link sent to it is opened. */
export const UserUpdateDocument = graphql(`
  mutation UserUpdate($email: String, $firstName: String, $lastName: String) {
    userUpdate(email: $email, firstName: $firstName, lastName: $lastName) {
      key
      group
      email
      firstName
      lastName
      reamazeAuthKey
    }
  }
`);

/** The pending secret to enroll (secret, uri) or isActive (SPEC §3 Passcode). */
export const PasscodeDocument = graphql(`
  query UserPasscode {
    userPasscode {
      secret
      uri
      isActive
    }
  }
`);

/** secret = the pending secret: activate; secret = '': deactivate; both with a valid code. */
export const PasscodeUpdateDocument = graphql(`
  mutation UserPasscodeUpdate($secret: String!, $passcode: String!) {
    userPasscodeUpdate(secret: $secret, passcode: $passcode) {
      secret
      uri
      isActive
    }
  }
`);
