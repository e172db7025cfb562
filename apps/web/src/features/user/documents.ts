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
      pendingEmail
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
      pendingEmail
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
      recoveryCodesLeft
    }
  }
`);

/**
 * secret = the pending secret: activate (the answer holds the ten recovery codes, shown once);
 * secret = '': deactivate, with an authenticator code or a recovery code.
 */
export const PasscodeUpdateDocument = graphql(`
  mutation UserPasscodeUpdate($secret: String!, $passcode: String!) {
    userPasscodeUpdate(secret: $secret, passcode: $passcode) {
      secret
      uri
      isActive
      recoveryCodes
      recoveryCodesLeft
    }
  }
`);

/** Ten new recovery codes replace the old ones; `passcode` is an authenticator or recovery code. */
export const RecoveryCodesCreateDocument = graphql(`
  mutation UserRecoveryCodesCreate($passcode: String!) {
    userRecoveryCodesCreate(passcode: $passcode)
  }
`);

/** Settings' password change; the user's other sessions end. */
export const PasswordUpdateDocument = graphql(`
  mutation UserPasswordUpdate($password: String!, $newPassword: String!, $newPassword2: String!) {
    userPasswordUpdate(password: $password, newPassword: $newPassword, newPassword2: $newPassword2)
  }
`);
