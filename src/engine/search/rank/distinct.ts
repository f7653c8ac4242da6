// `distinct` (search.md §9.1): keeping a document drops every other candidate sharing any of
// its values of the distinct field (strings normalized, numbers by value); a document without
// the field is never deduplicated. Bucket sort asks for a document's sharers as it keeps it.
import { Bitmap } from '../../bitmap/index.ts';

/** The facet values distinct reads (implemented by the facet index). */
export interface DistinctValues {
  fieldId(path: string): number | undefined;
  docNumbers(fid: number, docid: number): readonly number[];
  docStrings(fid: number, docid: number): readonly string[];
  numberEquals(fid: number, n: number): Bitmap;
  stringEquals(fid: number, normalized: string): Bitmap;
}

/** The sharers function of a distinct field, or null when the field has no facet values at all. */
export function distinctSharers(field: string, values: DistinctValues): ((docid: number) => Bitmap | null) | null {
  const fid = values.fieldId(field);
  if (fid === undefined) return null;
  return (docid) => {
    const numbers = values.docNumbers(fid, docid);
    const strings = values.docStrings(fid, docid);
    if (numbers.length === 0 && strings.length === 0) return null;
    const out = new Bitmap();
    for (const n of numbers) out.orInPlace(values.numberEquals(fid, n));
    for (const s of strings) out.orInPlace(values.stringEquals(fid, s));
    return out;
  };
}
