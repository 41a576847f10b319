export const metadata = { title: 'zenstack-api on Next.js' };

export default function RootLayout({ children }) {
    return (
        <html lang="en">
            <body>{children}</body>
        </html>
    );
}
