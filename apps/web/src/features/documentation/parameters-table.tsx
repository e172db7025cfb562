import type { Provider } from '@router/orders';
import { type ParameterRow, parameterRows } from './parameter-rows.ts';

export type PickValue = (parameter: string, value: string | number) => void;

function Pick({ parameter, value, onPick }: { parameter: string; value: string | number; onPick: PickValue }) {
  return (
    <button
      type="button"
      className="parameter-pick btn btn-link btn-sm p-0 font-monospace text-start text-break align-baseline text-decoration-none"
      title={`Put ${parameter} ${value} into the order`}
      onClick={() => onPick(parameter, value)}
    >
      {String(value)}
    </button>
  );
}

function Row({ row, onPick }: { row: ParameterRow; onPick: PickValue }) {
  return (
    <tr>
      <th scope="row" data-label="Parameter">
        <code>{row.name}</code>
        {row.advanced && <span className="badge text-bg-secondary ms-2">advanced</span>}
      </th>
      <td data-label="Required">{row.required}</td>
      <td data-label="Values">
        {row.values.length > 0 && (
          <ul className="list-unstyled mb-0">
            {row.values.map((item) => (
              <li key={item.value}>
                {item.pickable ? (
                  <Pick parameter={row.name} value={item.value} onPick={onPick} />
                ) : (
                  <code>{item.value}</code>
                )}
                {item.meaning && <span className="text-secondary small"> — {item.meaning}</span>}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td data-label="Examples">
        {row.examples.length > 0 && (
          <ul className="list-unstyled mb-0">
            {row.examples.map((item) => (
              <li key={String(item.value)}>
                <Pick parameter={row.name} value={item.value} onPick={onPick} />
                {item.note && <span className="text-secondary small"> ({item.note})</span>}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td data-label="Comments" className="small">
        {row.comments.map((comment) => (
          <p key={comment} className="mb-1">
            {comment}
          </p>
        ))}
      </td>
    </tr>
  );
}

/** SPEC §2 request parameters of the provider; clicking a value or an example fills the order. */
export function ParametersTable({ provider, onPick }: { provider: Provider; onPick: PickValue }) {
  const rows = parameterRows(provider);
  return (
    <section className="mb-4" aria-labelledby="parameters-title">
      <h2 id="parameters-title" className="h5">
        Request parameters for {provider.title}
      </h2>
      <p className="text-secondary small">Click a value or an example to put it into the playground's order.</p>
      {rows.length === 0 ? (
        <p className="text-secondary">{provider.title} documents no order parameters yet.</p>
      ) : (
        <table className="table table-sm align-top stack-table">
          <thead>
            <tr>
              <th scope="col" style={{ width: '16%' }}>
                Parameter
              </th>
              <th scope="col" style={{ width: '12%' }}>
                Required
              </th>
              <th scope="col" style={{ width: '30%' }}>
                Values
              </th>
              <th scope="col" style={{ width: '14%' }}>
                Examples
              </th>
              <th scope="col">Comments</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <Row key={row.name} row={row} onPick={onPick} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
