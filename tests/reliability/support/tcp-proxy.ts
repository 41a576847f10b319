import fs from 'node:fs';
import net from 'node:net';

/**
 * A loopback TCP proxy in front of a database server, to make the database go away and come back
 * under a running application: `stop()` refuses new connections and cuts the open ones (as a crashed
 * or restarted server does), `start()` serves again on the same port; in `blackhole` mode connections
 * are accepted but never answered (an unresponsive server or a dropped network).
 */
export class TcpProxy {
    private server: net.Server | undefined;
    private readonly sockets = new Set<net.Socket>();
    mode: 'forward' | 'blackhole' = 'forward';

    constructor(
        private readonly target: { host: string; port: number },
        /** 0 = pick a free port on the first start (and keep it). */
        public port = 0,
    ) {}

    /**
     * A loopback port where nothing listens, outside the kernel's ephemeral range. A port from that
     * range (what `listen(0)` gives) can be handed to another test's server in the meantime, or become
     * the source port of an outgoing connection to itself (TCP self-connect): either way a client that
     * should be refused talks to something instead (seen once in CI: no P1001). Ports below the range
     * are only ever bound by name.
     */
    static async freePort(): Promise<number> {
        const low = ephemeralLow();
        for (let attempt = 0; attempt < 100; attempt++) {
            const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
            const probe = net.createServer();
            const bound = await new Promise<boolean>((resolve) => {
                probe.once('error', () => resolve(false));
                probe.listen(port, '127.0.0.1', () => resolve(true));
            });
            if (bound) {
                await new Promise<void>((resolve) => probe.close(() => resolve()));
                return port;
            }
        }
        throw new Error('no free loopback port below the ephemeral range');
    }

    async start(): Promise<void> {
        const server = net.createServer((client) => this.accept(client));
        await new Promise<void>((resolve, reject) => {
            server.once('error', reject);
            server.listen(this.port, '127.0.0.1', () => resolve());
        });
        this.port = (server.address() as net.AddressInfo).port;
        this.server = server;
    }

    async stop(): Promise<void> {
        const server = this.server;
        this.server = undefined;
        for (const s of this.sockets) s.destroy();
        this.sockets.clear();
        if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    }

    private track(socket: net.Socket): void {
        this.sockets.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => this.sockets.delete(socket));
    }

    private accept(client: net.Socket): void {
        this.track(client);
        if (this.mode === 'blackhole') return;
        const upstream = net.connect(this.target.port, this.target.host);
        this.track(upstream);
        client.pipe(upstream).pipe(client);
        upstream.on('close', () => client.destroy());
        client.on('close', () => upstream.destroy());
    }
}

/** The first port of the kernel's ephemeral range (Linux; 32768 elsewhere, the common default). */
function ephemeralLow(): number {
    try {
        const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
        return Number.isInteger(low) && low > 11_000 ? low : 32_768;
    } catch {
        return 32_768;
    }
}
