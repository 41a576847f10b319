export default function Home() {
    return (
        <main>
            <h1>zenstack-api on Next.js</h1>
            <p>
                RPC: <code>/api/model/post/findMany</code>; JSON:API: <code>/api/rest/post</code>. Send <code>x-user-id</code> to act as a user.
            </p>
        </main>
    );
}
