-- Applications' authorization codes, access and refresh tokens are their own ids: kept from now on
-- as SHA-256 (base64url, as sessions' token_hash) and without the `jti` that repeated them
-- (modules/oauth/adapter.ts). Rows stored before are converted, so they keep working.
UPDATE "oidc_payloads"
SET "id" = translate(rtrim(encode(sha256(convert_to("id", 'UTF8')), 'base64'), '='), '+/', '-_'),
    "payload" = "payload" - 'jti'
WHERE "kind" IN ('AuthorizationCode', 'AccessToken', 'RefreshToken') AND "payload" ? 'jti';
