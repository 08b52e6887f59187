import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "PAL Studio", template: "%s · PAL Studio" },
  description: "Study memory-based personalized dialogue assistants",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
