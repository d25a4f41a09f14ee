/** Connections the HTTP service has accepted (ES's `http` node statistics). */
import type { Server } from 'node:http';
import { setBoundAddress } from './local-node.js';

const connections = { current: 0, total: 0 };

/** Counts the server's connections and records its address once it listens. */
export function watchServer(server: Server): void {
  server.on('connection', (socket) => {
    connections.current++;
    connections.total++;
    socket.once('close', () => {
      connections.current--;
    });
  });
  server.on('listening', () => {
    const address = server.address();
    if (address && typeof address === 'object') setBoundAddress(address.address, address.port);
  });
}

export function httpStats() {
  return { current_open: connections.current, total_opened: connections.total };
}
