// SQL twin of describeAction (packages/shared/src/action-description.ts), so activity search can
// match the description inside PostgreSQL. action-description.sql.test.ts holds the two equal.
import {
  ACTION_CODES,
  API_SHORT_KEY_PREFIX,
  METADATA_PATHS,
  OWN_ACTION_CODES,
  type ProviderTitles,
} from '@router/shared';

type Path = readonly string[];

/** A text literal of our own constants (never user input). */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The value at `path` when it is a JSON string or number, as text; else null. */
function scalarAt(m: string, path: Path): string {
  const p = literal(`{${path.join(',')}}`);
  return `(case when jsonb_typeof(${m} #> ${p}) in ('string', 'number') then ${m} #>> ${p} end)`;
}

function firstOf(m: string, paths: readonly Path[]): string {
  return `coalesce(${paths.map((path) => scalarAt(m, path)).join(', ')}, '')`;
}

function accountIds(m: string, account: string): string {
  const list = `(case when jsonb_typeof(${m} -> 'accounts') = 'array' then ${m} -> 'accounts'
    when jsonb_typeof(${m} -> 'accountIds') = 'array' then ${m} -> 'accountIds' end)`;
  const id = `coalesce((case when jsonb_typeof(e) in ('string', 'number') then e #>> '{}' end), ${scalarAt('e', ['id'])})`;
  return `coalesce((select string_agg(${id}, ', #' order by n) from jsonb_array_elements(${list}) with ordinality as x(e, n)), ${account})`;
}

function failed(m: string): string {
  const status = scalarAt(m, ['response', 'status']);
  const error = `${m} #> '{response,error}'`;
  return `coalesce(${status} = 'rejected' or strpos(${status}, 'Error') > 0
    or ${error} not in ('null'::jsonb, 'false'::jsonb, '""'::jsonb), false)`;
}

/** The provider's title where `titles` knows its name (describeAction's), else the name. */
function titled(name: string, titles: ProviderTitles): string {
  const whens = Object.entries(titles).map(([key, title]) => `when ${literal(key)} then ${literal(title)}`);
  return whens.length === 0 ? name : `(case ${name} ${whens.join(' ')} else ${name} end)`;
}

/**
 * The description of the row whose code and metadata (jsonb) are the given SQL expressions;
 * `titles` are our own constants (the provider registry), never user input.
 */
export function describeActionSql(code: string, m: string, titles: ProviderTitles = {}): string {
  const provider = titled(firstOf(m, METADATA_PATHS.provider), titles);
  const key = firstOf(m, METADATA_PATHS.key);
  const name = firstOf(m, METADATA_PATHS.name);
  const account = firstOf(m, METADATA_PATHS.account);
  const codes = [...ACTION_CODES, ...OWN_ACTION_CODES].map(literal).join(', ');
  const because = (text: string) => `${literal(text)} || coalesce(': ' || nullif(${scalarAt(m, ['reason'])}, ''), '')`;
  return `(case
    when ${code} = 'Signin' then 'You signed in to the dashboard'
    when ${code} = 'AuthPasswordReset' then 'You reset the password'
    when ${code} = 'AuthPasswordResetRequest' then 'You requested password reset'
    when ${code} not in (${codes}) then '-'
    when jsonb_typeof(${m}) is distinct from 'object' or ${m} = '{}'::jsonb then ${code}
    when ${code} in ('ConnectorCreate', 'ConnectorActivate')
      then ${provider} || ' account(s) #' || ${accountIds(m, account)} || ' connected'
    when ${code} = 'ConnectorDeactivate' then concat_ws(' ', nullif(${provider}, ''), 'connection disabled')
    when ${code} = 'ConnectorDelete' then concat_ws(' ', nullif(${provider}, ''), 'disconnected')
    when ${code} = 'HookCreate'
      then 'Webhook ' || ${key} || ' (' || ${name} || ') created for ' || ${provider} || ' #' || ${account}
    when ${code} = 'HookDelete'
      then 'Webhook ' || ${key} || ' (' || ${name} || ') removed from ' || ${provider} || ' #' || ${account}
    when ${code} = 'HookActivate' then 'Webhook ' || ${key} || ' (' || ${name} || ') reactivated'
    when ${code} = 'HookDeactivate'
      then 'Webhook ' || ${key} || ' (' || ${name} || ') ' || ${because('deactivated')}
    when ${code} = 'HookRules' then 'Webhook ' || ${key} || ' (' || ${name} || ') controls changed'
    when ${code} = 'HooksPause' then ${because('Webhooks paused')}
    when ${code} = 'HooksResume' then 'Webhooks resumed'
    when ${code} = 'QueuedSignalCancel'
      then 'Queued signal ' || coalesce(${scalarAt(m, ['id'])}, '') || ' ' || ${because('cancelled')}
    when left(${key}, ${API_SHORT_KEY_PREFIX.length}) = ${literal(API_SHORT_KEY_PREFIX)}
      then 'REST API order' || coalesce(' from ' || nullif(${scalarAt(m, ['hook', 'via'])}, ''), '')
        || ' (' || ${provider} || '#' || ${account} || ')'
        || (case when ${failed(m)} then ' failed' else '' end)
    else 'Webhook ' || ${key} || ' (' || ${provider} || '#' || ${account} || ') '
      || (case when ${failed(m)} then 'call failed' else 'called' end)
  end)`;
}
