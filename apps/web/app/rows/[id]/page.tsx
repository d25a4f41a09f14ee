import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getRowHomes, getSet } from '@/lib/data';
import { rowHref } from '@/lib/routes';

type Params = { id: string };

export const dynamicParams = false;

/** `/rows/<id>/`, the address the harness prints and the gate links (SITE_URL): one per row id. */
export function generateStaticParams(): Params[] {
  return getRowHomes().map(({ id }) => ({ id }));
}

export const metadata: Metadata = { robots: { index: false } };

/** Sends a reader to the row's page in the newest set that measured it. */
export default async function RowHomePage({ params }: { params: Promise<Params> }) {
  const id = decodeURIComponent((await params).id);
  const home = getRowHomes().find((entry) => entry.id === id);
  const set = home ? getSet(home.set) : undefined;
  if (!home || !set) notFound();
  const target = rowHref(home.set, id);
  return (
    <section className="empty">
      <meta httpEquiv="refresh" content={`0; url=${target}`} />
      <h1>
        <code>{id}</code>
      </h1>
      <p>
        This row&apos;s page is in its comparable set: <a href={target}>{set.name}</a>.
      </p>
    </section>
  );
}
