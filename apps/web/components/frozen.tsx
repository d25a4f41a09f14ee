'use client';

import type { ReactNode } from 'react';

/**
 * Static content the browser keeps as the server wrote it, without hydrating it: on the server it
 * renders its children; in the browser it renders an empty element that React adopts whole,
 * leaving the server's HTML in place (suppressHydrationWarning: the difference is the point). A
 * page of a hundred table rows then hydrates a handful of elements instead of thousands, which is
 * most of its main-thread time on a phone. Only for content that never changes after load and
 * holds no React state; links, <details> and forms work without React.
 */
export function Frozen({ children, className }: { children: ReactNode; className?: string }) {
  if (typeof window === 'undefined') return <div className={className}>{children}</div>;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: an empty string, never content: React keeps the server's HTML.
  return <div className={className} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: '' }} />;
}
