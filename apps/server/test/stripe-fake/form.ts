// Stripe's request encoding, as the `stripe` package sends it: application/x-www-form-urlencoded
// with brackets for nesting and indices for arrays, the same in query strings:
//   email=a%40b.test&metadata[user_key]=u_1&line_items[0][price]=price_1&line_items[0][quantity]=1
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = { [key: string]: FormValue };

const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));

/** Objects whose keys are all 0..n-1 become arrays. */
function arrays(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const next: { [key: string]: FormValue } = {};
  for (const key of keys) next[key] = arrays(value[key] as FormValue);
  const indexed = keys.length > 0 && keys.every((key, i) => key === String(i));
  return indexed ? keys.map((key) => next[key] as FormValue) : next;
}

export function parseForm(text: string): Form {
  const root: { [key: string]: FormValue } = {};
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const path = key.replace(/\]/g, '').split('[');
    let node = root;
    path.forEach((segment, i) => {
      if (i === path.length - 1) {
        node[segment] = value;
        return;
      }
      const child = node[segment];
      if (typeof child !== 'object' || child === null || Array.isArray(child)) node[segment] = {};
      node = node[segment] as { [key: string]: FormValue };
    });
  }
  return arrays(root) as Form;
}

export const text = (value: FormValue | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

export const list = (value: FormValue | undefined): FormValue[] => (Array.isArray(value) ? value : []);

export const record = (value: FormValue | undefined): Record<string, string> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
};
