// Every GraphQL error names its kind in `extensions.code`, as resolvers' errors do (maskError):
// the executor's refusals of the variables (a required one left out, a value of the wrong type)
// carry none, nor do graphql-armor's limits (depth, aliases, cost, tokens), so a client branching
// on the code found nothing. They get BAD_USER_INPUT (the operation reached execution: the
// caller's variables, refused before any resolver ran) or GRAPHQL_VALIDATION_FAILED (it did not:
// the document, as Yoga names its own validation errors); messages and HTTP statuses unchanged.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

type ResultError = GraphQLError | { message: string; path?: unknown; extensions?: Record<string, unknown> };

interface Result {
  errors?: readonly ResultError[];
}

function withCode(error: ResultError, code: string): ResultError {
  // A field's error (it has a path) is the resolver's, coded by maskError.
  if (error.extensions?.code !== undefined || error.path !== undefined) return error;
  const extensions = { ...error.extensions, code };
  if (!(error instanceof GraphQLError)) return { ...error, message: error.message, extensions };
  const { nodes, source, positions, originalError } = error;
  return new GraphQLError(error.message, { nodes, source, positions, originalError, extensions });
}

function coded<T>(result: T, code: string): T {
  const { errors } = result as Result;
  return errors ? ({ ...result, errors: errors.map((error) => withCode(error, code)) } as T) : result;
}

const isStream = (result: object) => Symbol.asyncIterator in result;

export function errorCodesPlugin(): Plugin {
  /** Requests whose operation reached execution: their errors are the variables', not the document's. */
  const executed = new WeakSet<Request>();
  return {
    onExecute({ args }) {
      const { request } = args.contextValue as { request?: Request };
      if (request) executed.add(request);
    },
    onResultProcess({ request, result, setResult }) {
      const code = executed.has(request) ? 'BAD_USER_INPUT' : 'GRAPHQL_VALIDATION_FAILED';
      if (Array.isArray(result)) setResult(result.map((one) => coded(one, code)));
      else if (!isStream(result)) setResult(coded(result, code));
    },
  };
}
