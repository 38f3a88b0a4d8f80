// Preloaded into Node peers (node -r) so every server they start listens on 127.0.0.1 only,
// whatever host they ask for: the tests never open a port on other interfaces.
'use strict';
const net = require('net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (args.length && typeof args[0] === 'object' && args[0] !== null && !Array.isArray(args[0])) {
    if (args[0].path === undefined) args[0] = { ...args[0], host: '127.0.0.1' };
  } else if (args.length && (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0])))) {
    const rest = args.slice(1).filter((a) => typeof a !== 'string');
    args = [Number(args[0]), '127.0.0.1', ...rest];
  }
  // Says the port it got, for a peer asked for port 0 (no port picked beforehand can be taken
  // meanwhile by another test's connection).
  this.once('listening', () => {
    const address = this.address();
    if (address && typeof address === 'object') process.stderr.write(`loopback: listening on port ${address.port}\n`);
  });
  return listen.apply(this, args);
};
