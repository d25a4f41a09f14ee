'use client';

import { usePathname } from 'next/navigation';
import { compareIndexHref, homeHref, methodologyHref, runsHref, throughputHref } from '@/lib/routes';

/** The page types, as plain links (see lib/routes.ts); the current section is marked for screen readers. */
const SECTIONS = [
  { label: 'Latest run', href: homeHref(), matches: (path: string) => path === '/' },
  { label: 'Runs', href: runsHref(), matches: (path: string) => path.startsWith('/runs') },
  { label: 'Compare', href: compareIndexHref(), matches: (path: string) => path.startsWith('/compare') },
  {
    label: 'Throughput',
    href: throughputHref(),
    matches: (path: string) => path.startsWith('/throughput'),
  },
  {
    label: 'Methodology',
    href: methodologyHref(),
    matches: (path: string) => path.startsWith('/methodology'),
  },
];

export function SiteNav() {
  // Without the base path, and known at build time, so the marker is in the static HTML too.
  const pathname = usePathname() ?? '';
  return (
    <nav className="site-nav" aria-label="Site">
      <ul>
        {SECTIONS.map((section) => {
          const current = section.matches(pathname);
          return (
            <li key={section.label}>
              <a href={section.href} aria-current={current ? 'page' : undefined}>
                {section.label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
