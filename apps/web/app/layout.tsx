import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { SiteNav } from '@/components/site-nav';
import { homeHref, methodologyHref } from '@/lib/routes';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'everycell scorecard', template: '%s · everycell scorecard' },
  description: 'Head-to-head benchmark scorecard: everycell against OpenSearch, row by row, run by run.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <div className="wrap header-inner">
            <a href={homeHref()} className="brand">
              <span className="brand-mark" aria-hidden="true" />
              everycell <span className="brand-sub">scorecard</span>
            </a>
            <SiteNav />
          </div>
        </header>
        <main className="wrap" id="main">
          {children}
        </main>
        <footer className="site-footer">
          <div className="wrap">
            Ratios are normalised so that &gt; 1 always means the candidate is better; a WIN or LOSE needs the
            ratio&apos;s confidence interval, at the level its run set and each row states, to exclude 1 and
            the ratio to clear the tie margin (see <a href={methodologyHref()}>methodology</a>). Generated at
            build time from the committed scorecards.
          </div>
        </footer>
      </body>
    </html>
  );
}
