// Every mutation an administrator makes while acting as another user (X-User) is appended to
// the audit log before it runs (DESIGN.md: "every proxied request is logged"); if that record
// cannot be written, the mutation does not run. Admin calls record themselves.
import { AUDIT_ACTIONS } from '@router/shared';
import {
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getOperationAST,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { recordAudit, redactArguments } from '../modules/admin/audit.ts';
import type { GraphQLContext } from './context.ts';

/** The root fields of a selection, through fragments. */
function rootFields(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): FieldNode[] {
  return set.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFields(selection.selectionSet, fragments);
    const fragment = fragments.get(selection.name.value);
    return fragment ? rootFields(fragment.selectionSet, fragments) : [];
  });
}

export function proxyAuditPlugin(): Plugin<GraphQLContext> {
  return {
    async onExecute({ args }) {
      const { viewer, services } = args.contextValue;
      if (viewer?.proxiedBy === undefined) return;
      const operation = getOperationAST(args.document, args.operationName);
      const mutationType = args.schema.getMutationType();
      if (operation?.operation !== 'mutation' || !mutationType) return;
      const fragments = new Map<string, FragmentDefinitionNode>();
      for (const definition of args.document.definitions) {
        if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
      }
      for (const field of rootFields(operation.selectionSet, fragments)) {
        const name = field.name.value;
        const definition = mutationType.getFields()[name];
        if (!definition || name.startsWith('admin')) continue;
        let values: unknown;
        try {
          values = getArgumentValues(definition, field, args.variableValues ?? {});
        } catch {
          values = null; // invalid arguments: the mutation fails validation and changes nothing
        }
        await recordAudit(services.db, {
          adminId: viewer.proxiedBy,
          targetId: viewer.userId,
          action: AUDIT_ACTIONS.proxiedMutation,
          details: { mutation: name, arguments: redactArguments(values), requestId: args.contextValue.requestId },
        });
      }
    },
  };
}
