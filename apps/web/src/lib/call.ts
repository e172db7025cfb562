import type { AnyVariables, Client, CombinedError, DocumentInput, OperationContext, OperationResult } from '@urql/core';
import { useMemo } from 'react';
import { useClient } from 'urql';

/** SPEC §8: a wrapper call rejects with the network error, else the first GraphQL error. */
export function firstError(error: CombinedError): Error {
  return error.networkError ?? error.graphQLErrors[0] ?? error;
}

export async function unwrap<Data>(pending: PromiseLike<OperationResult<Data>>): Promise<Data> {
  const result = await pending;
  if (result.error) throw firstError(result.error);
  if (result.data === undefined || result.data === null) throw new Error('No Content');
  return result.data;
}

export function callQuery<Data, Variables extends AnyVariables>(
  client: Client,
  document: DocumentInput<Data, Variables>,
  variables: Variables,
  context?: Partial<OperationContext>,
): Promise<Data> {
  return unwrap(client.query(document, variables, context).toPromise());
}

export function callMutation<Data, Variables extends AnyVariables>(
  client: Client,
  document: DocumentInput<Data, Variables>,
  variables: Variables,
  context?: Partial<OperationContext>,
): Promise<Data> {
  return unwrap(client.mutation(document, variables, context).toPromise());
}

/** The calls above bound to the current client, for forms. */
export function useCall() {
  const client = useClient();
  return useMemo(
    () => ({
      query: <Data, Variables extends AnyVariables>(
        document: DocumentInput<Data, Variables>,
        variables: Variables,
        context?: Partial<OperationContext>,
      ) => callQuery(client, document, variables, context),
      mutate: <Data, Variables extends AnyVariables>(
        document: DocumentInput<Data, Variables>,
        variables: Variables,
        context?: Partial<OperationContext>,
      ) => callMutation(client, document, variables, context),
    }),
    [client],
  );
}
