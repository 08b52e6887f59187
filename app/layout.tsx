import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "PAL Studio", template: "%s · PAL Studio" },
  description: "Study memory-based personalized dialogue assistants",
  // public/: the favicon for browser tabs and the app's icon (bookmarks, home screens).
  icons: {
    icon: [
      { url: "/favicon.svg", type: "image/svg+xml", sizes: "any" },
      { url: "/icon.svg", type: "image/svg+xml", sizes: "512x512" },
    ],
    apple: "/icon.svg",
  },
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
