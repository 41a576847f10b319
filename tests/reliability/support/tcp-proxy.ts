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

    /** Reserves a free loopback port without listening on it: connecting there is refused. */
    static async freePort(): Promise<number> {
        const probe = net.createServer();
        await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
        const { port } = probe.address() as net.AddressInfo;
        await new Promise<void>((resolve) => probe.close(() => resolve()));
        return port;
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
