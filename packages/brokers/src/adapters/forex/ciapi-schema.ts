// City Index's own description of the CIAPI (ciapi-meta.json: SMD routes and DTO schema, Apache-2.0)
// applied to a request: the route by method and URI template, its query parameters (names, types,
// required ones), and a JSON body against the DTO the route takes, property by property
// (PascalCase and case-sensitive: a wrong case is ErrorCode 4004, as the ErrorCode enum says).
// The protocol fake refuses what this finds; tests check the fake's answers with checkDto too.
import { readFileSync } from 'node:fs';

interface Parameter {
  name: string;
  type?: string;
  $ref?: string;
  required?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}
interface Route {
  target: string;
  uriTemplate: string;
  transport: string;
  parameters: Parameter[];
  returns?: { $ref: string };
}
type TypeSpec = string | string[] | { $ref: string };
interface Property {
  type?: TypeSpec;
  items?: Array<string | { $ref: string }>;
  minLength?: number;
  maxLength?: number;
}
interface Dto {
  extends?: string;
  properties: Record<string, Property>;
}

const meta = JSON.parse(readFileSync(new URL('./ciapi-meta.json', import.meta.url), 'utf8')) as {
  routes: Record<string, Route>;
  dtos: Record<string, Dto>;
};

/** An ApiErrorResponseDTO the fake answers with. */
export interface Problem {
  code: 4000 | 4001 | 4002 | 4003 | 4004;
  message: string;
}

export interface CompiledRoute {
  name: string;
  method: string;
  pattern: RegExp;
  query: Map<string, Parameter>;
  body?: string;
  /** The DTO the route answers with. */
  returns?: string;
}

/** Query parameters clients send beyond the 2015 SMD (WIRE.md [PYG]): tick history by price type. */
const EXTRA_QUERY: Record<string, Parameter[]> = { GetPriceTicks: [{ name: 'priceType', type: 'string' }] };
/** The SMD's trade history template reads order/order/tradehistory; clients call order/tradehistory. */
const ALIASES: Record<string, string> = { ListTradeHistory: '/order/tradehistory' };

function compile(name: string, route: Route, pathOverride?: string): CompiledRoute {
  const [pathPart = '', queryPart = ''] = route.uriTemplate.split('?');
  const path = pathOverride ?? (`/${route.target}${pathPart}`.replace(/\/+$/, '') || '/');
  const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)');
  const query = new Map<string, Parameter>();
  for (const pair of queryPart.split('&').filter(Boolean)) {
    const [key = '', placeholder = ''] = pair.split('=');
    const parameter = route.parameters.find((item) => `{${item.name}}` === placeholder);
    if (parameter) query.set(key, parameter);
  }
  for (const extra of EXTRA_QUERY[name] ?? []) query.set(extra.name, extra);
  const body = route.transport === 'POST' ? route.parameters.find((item) => item.$ref)?.$ref?.slice(2) : undefined;
  const returns = route.returns?.$ref.slice(2);
  return {
    name,
    method: route.transport,
    pattern: new RegExp(`^${source}$`),
    query,
    ...(body ? { body } : {}),
    ...(returns ? { returns } : {}),
  };
}

/** Literal paths before templated ones (/order/openpositions before /order/{OrderId}). */
export const ROUTES: CompiledRoute[] = Object.entries(meta.routes)
  .flatMap(([name, route]) => [compile(name, route), ...(ALIASES[name] ? [compile(name, route, ALIASES[name])] : [])])
  .sort((a, b) => Number(a.pattern.source.includes('([^/]+)')) - Number(b.pattern.source.includes('([^/]+)')));

export function matchRoute(method: string, path: string): CompiledRoute | undefined {
  return ROUTES.find((route) => route.method === method && route.pattern.test(path.replace(/\/+$/, '')));
}

function checkScalar(type: string, value: string, where: string, spec: Parameter): Problem | undefined {
  const wrong = (): Problem => ({
    code: 4000,
    message: `${where} must be ${type === 'integer' ? 'an integer' : `a ${type}`}`,
  });
  if (type === 'integer') {
    if (!/^-?\d+$/.test(value)) return wrong();
    const number = Number(value);
    if ((spec.minimum !== undefined && number < spec.minimum) || (spec.maximum !== undefined && number > spec.maximum))
      return { code: 4002, message: `${where} is out of range` };
  }
  if (type === 'boolean' && value !== 'true' && value !== 'false') return wrong();
  if (spec.minLength !== undefined && value.length < spec.minLength)
    return { code: 4002, message: `${where} is too short` };
  if (spec.maxLength !== undefined && value.length > spec.maxLength)
    return { code: 4002, message: `${where} is too long` };
  return undefined;
}

export function checkQuery(route: CompiledRoute, params: URLSearchParams): Problem | undefined {
  const known = new Set(['only200', 'UserName', 'Session']);
  for (const [key, value] of params) {
    const spec = route.query.get(key);
    if (!spec) {
      if (known.has(key)) continue;
      const other = [...route.query.keys()].find((name) => name.toLowerCase() === key.toLowerCase());
      return other
        ? { code: 4004, message: `query parameter ${key} is not ${other}: names are case-sensitive` }
        : { code: 4002, message: `${route.name} takes no query parameter ${key}` };
    }
    const problem = checkScalar(spec.type ?? 'string', value, key, spec);
    if (problem) return problem;
  }
  for (const [key, spec] of route.query)
    if (spec.required && !params.has(key)) return { code: 4001, message: `${key} is required` };
  return undefined;
}

function propertiesOf(name: string): Record<string, Property> {
  const dto = meta.dtos[name];
  if (!dto) throw new Error(`ciapi-meta.json has no ${name}`);
  return { ...(dto.extends ? propertiesOf(dto.extends.slice(2)) : {}), ...dto.properties };
}

function checkValue(
  type: TypeSpec | undefined,
  property: Property,
  value: unknown,
  where: string,
): Problem | undefined {
  if (Array.isArray(type)) {
    if (value === null && type.includes('null')) return undefined;
    return checkValue(
      type.find((item) => item !== 'null'),
      property,
      value,
      where,
    );
  }
  if (typeof type === 'object') return value === null ? undefined : checkDto(type.$ref.slice(2), value, `${where}.`);
  // Strings and arrays are .NET reference types: null is a value (the published answers carry ErrorMessage: null).
  if (value === null && (type === 'string' || type === 'array')) return undefined;
  const fits: Record<string, (v: unknown) => boolean> = {
    integer: (v) => Number.isInteger(v),
    number: (v) => typeof v === 'number' && Number.isFinite(v),
    decimal: (v) => typeof v === 'number' && Number.isFinite(v),
    string: (v) => typeof v === 'string',
    boolean: (v) => typeof v === 'boolean',
    array: (v) => Array.isArray(v),
  };
  if (type && fits[type] && !fits[type](value)) return { code: 4000, message: `${where} must be of type ${type}` };
  if (type === 'string' && typeof value === 'string') {
    const { minLength, maxLength } = property;
    if ((minLength !== undefined && value.length < minLength) || (maxLength !== undefined && value.length > maxLength))
      return { code: 4002, message: `${where} must be ${minLength ?? 0} to ${maxLength ?? '∞'} characters` };
  }
  if (type === 'array' && Array.isArray(value)) {
    const [item] = property.items ?? [];
    for (const [index, element] of value.entries()) {
      const problem = item ? checkValue(item, {}, element, `${where}[${index}]`) : undefined;
      if (problem) return problem;
    }
  }
  return undefined;
}

/** A value against DTO `name`: every property known, spelled as declared, of its declared type. */
export function checkDto(name: string, value: unknown, where = ''): Problem | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { code: 4003, message: `${where || 'the body'} must be a JSON object (${name})` };
  const properties = propertiesOf(name);
  for (const [key, field] of Object.entries(value)) {
    const property = properties[key];
    if (!property) {
      const other = Object.keys(properties).find((known) => known.toLowerCase() === key.toLowerCase());
      return other
        ? { code: 4004, message: `${where}${key} is not ${other}: property names are case-sensitive` }
        : { code: 4002, message: `${where}${key} is not a property of ${name}` };
    }
    const problem = checkValue(property.type, property, field, `${where}${key}`);
    if (problem) return problem;
  }
  return undefined;
}
