/**
 * The one script a static page loads (scripts/export-tidy.ts adds it where a page has a run table's
 * controls): wires them once the document is parsed (the tag is `defer`).
 */
import { enhanceTables } from '../lib/table-enhance';

enhanceTables();
