// Kept-alive connections for webhook deliveries, so a busy endpoint costs no TCP (and TLS)
// handshake per message. The guard still resolves and checks the host on every delivery:
// connections are pooled per set of checked addresses, so a reused socket always goes to an
// address just approved, never to one a name resolved to earlier.
import http from 'node:http';
import https from 'node:https';

/** Idle connections close after this, below the usual 5 s keep-alive of receivers (Node's). */
const IDLE_MS = 4_000;
/** Connections per endpoint address (the worker's own bound on sends in flight is lower). */
const SOCKETS = 8;
/** Agents remembered; an evicted one's idle sockets still close after IDLE_MS. */
const MAX_AGENTS = 64;

export interface WebhookAgents {
  /** The pool for one URL's origin at its checked addresses (comma-separated). */
  agentFor(target: URL, addresses: string): http.Agent;
  close(): void;
}

export function createWebhookAgents(): WebhookAgents {
  const agents = new Map<string, http.Agent>();
  return {
    agentFor(target, addresses) {
      const key = `${target.protocol}//${target.host}@${addresses}`;
      let agent = agents.get(key);
      if (agent) {
        agents.delete(key); // re-inserted below: the map's order is least recently used first
      } else {
        const options = { keepAlive: true, maxSockets: SOCKETS, maxFreeSockets: SOCKETS, timeout: IDLE_MS };
        agent = target.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      }
      agents.set(key, agent);
      if (agents.size > MAX_AGENTS) agents.delete(agents.keys().next().value ?? key);
      return agent;
    },
    close() {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}
