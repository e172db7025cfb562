import { type AlertMessage, type AlertPlatform, alertJson, PLACEHOLDERS } from '@router/orders';
import { useId } from 'react';
import { CopyButton } from '../../components/copy-button.tsx';
import { ExternalLink } from '../documentation/external-link.tsx';
import { PlatformSteps, VARIABLES_URL } from './platform-steps.tsx';
import { PublicUrlWarning } from './public-url-warning.tsx';

/** 'Strategy alert' → 'strategy alert'; brand names keep their capitals ('TrendSpider alert'). */
const inSentence = (title: string) =>
  /^(TrendSpider|Zapier)/.test(title) ? title : title[0]?.toLowerCase() + title.slice(1);

/** One alert message, ready to paste: what it is for, the JSON, a copy button. */
function MessageBlock({ message }: { message: AlertMessage }) {
  const id = useId();
  const json = alertJson(message);
  return (
    <div className="mb-3">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-1">
        <label htmlFor={id} className="fw-semibold small mb-0">
          {message.title}
        </label>
        <CopyButton text={json} label={`Copy ${inSentence(message.title)}`} />
      </div>
      <p className="small text-secondary mb-1">{message.description}</p>
      <textarea
        id={id}
        className="form-control font-monospace small"
        rows={json.split('\n').length}
        value={json}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
      />
    </div>
  );
}

/** A platform's tab: reachability warning, its steps, the messages for this broker, the placeholders. */
export function PlatformGuide({
  platform,
  url,
  messages,
}: {
  platform: AlertPlatform;
  url: string;
  messages: readonly AlertMessage[];
}) {
  const placeholders = platform === 'zapier' ? [] : PLACEHOLDERS[platform];
  const variablesUrl = VARIABLES_URL[platform];
  return (
    <div className="pt-3">
      <PublicUrlWarning url={url} platform={platform} />
      <h3 className="h6">Steps</h3>
      <PlatformSteps platform={platform} />
      <h3 className="h6">{messages.length > 1 ? 'Messages' : 'Message'}</h3>
      {messages.map((message) => (
        <MessageBlock key={message.id} message={message} />
      ))}
      {placeholders.length > 0 && (
        <>
          <h3 className="h6">Placeholders</h3>
          <dl className="row small mb-1">
            {placeholders.map((placeholder) => (
              <div key={placeholder.text} className="col-12 d-sm-flex gap-2">
                <dt className="font-monospace fw-normal text-nowrap">{placeholder.text}</dt>
                <dd className="mb-1 text-secondary">{placeholder.meaning}</dd>
              </div>
            ))}
          </dl>
          {variablesUrl && (
            <p className="small mb-0">
              Numbers may be math on placeholders, e.g. <code>"limit_price": "{placeholders[1]?.text} * 0.99"</code>.{' '}
              <ExternalLink href={variablesUrl}>All placeholders</ExternalLink>
            </p>
          )}
        </>
      )}
    </div>
  );
}
