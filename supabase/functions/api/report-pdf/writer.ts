// The report's writer: pdf-lib's PDFWriter run object by object into a stream, with the deferred
// images' bytes passed from Storage into the response as it reaches them.
import {
  type PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFWriter,
} from 'pdf-lib';
import type { MemoryProbe } from '../../_shared/memory-probe.ts';
import type { StorageCaller } from '../evidence.ts';
import { ByteReader, type DeferredImage, openEvidence, pngImageData } from './images.ts';

const encoder = new TextEncoder();

/**
 * pdf-lib's PDFWriter, writing object by object into a stream instead of one buffer, and writing
 * the deferred images' bytes as it reaches them (read from Storage then, one at a time). The
 * offsets come from pdf-lib's own size computation, with each deferred image counted at its
 * known size, so the length is known before the first byte.
 */
export class StreamingWriter extends PDFWriter {
  static async stream(
    doc: PDFDocument,
    deferred: Map<PDFRef, DeferredImage>,
    caller: StorageCaller,
    probe: MemoryProbe,
  ): Promise<{ stream: ReadableStream<Uint8Array>; length: number }> {
    const writer = new StreamingWriter(doc.context, 50);
    return await writer.serialize(deferred, caller, probe);
  }

  private constructor(context: PDFDocument['context'], objectsPerTick: number) {
    super(context, objectsPerTick);
  }

  /** "<dict>\nstream\n" of a stream whose contents are written apart (a deferred image's, a raw stream's), its Length set to their size. */
  private streamHead(object: PDFObject, bytes: number): Uint8Array {
    const dict = (object as PDFRawStream).dict as PDFDict;
    dict.set(PDFName.of('Length'), PDFNumber.of(bytes));
    const head = new Uint8Array(dict.sizeInBytes() + 8);
    const n = dict.copyBytesInto(head, 0);
    head.set(encoder.encode('\nstream\n'), n);
    return head;
  }

  private async serialize(deferred: Map<PDFRef, DeferredImage>, caller: StorageCaller, probe: MemoryProbe) {
    const { header, indirectObjects, xref, trailerDict, trailer } = await this.computeBufferSize();
    // PDFWriter always makes both (only its object-stream subclass leaves them out).
    if (!xref || !trailerDict) throw new Error('pdf-lib made no cross-reference table');
    // computeBufferSize counted each deferred image with no contents: recompute the offsets with them.
    let offset = header.sizeInBytes() + 2;
    const sizes = indirectObjects.map(([ref, object]) => {
      const photo = deferred.get(ref);
      const size = photo
        ? ref.sizeInBytes() + 3 + this.streamHead(object, photo.bytes).byteLength + photo.bytes + '\nendstream'.length + 9
        : this.computeIndirectObjectSize([ref, object]);
      return size;
    });
    const entries = new Map<PDFRef, { offset: number }>();
    for (const subsection of (xref as unknown as { subsections: Array<Array<{ ref: PDFRef; offset: number }>> }).subsections) {
      for (const entry of subsection) entries.set(entry.ref, entry);
    }
    for (const [i, [ref]] of indirectObjects.entries()) {
      // Offsets are written with a fixed width (10 digits): changing them keeps the table's size.
      const entry = entries.get(ref);
      if (entry) entry.offset = offset;
      offset += sizes[i];
    }
    const xrefOffset = offset;
    const fixedTrailer = (trailer.constructor as unknown as { forLastCrossRefSectionOffset(n: number): typeof trailer }).forLastCrossRefSectionOffset(xrefOffset);
    const length = xrefOffset + xref.sizeInBytes() + 1 + trailerDict.sizeInBytes() + 2 + fixedTrailer.sizeInBytes();

    const copy = (source: { sizeInBytes(): number; copyBytesInto(buffer: Uint8Array, offset: number): number }, extra = '') => {
      const buffer = new Uint8Array(source.sizeInBytes() + extra.length);
      const n = source.copyBytesInto(buffer, 0);
      buffer.set(encoder.encode(extra), n);
      return buffer;
    };
    let index = -1;
    let written = 0;
    let photoInFlight: { reader: ByteReader | null; chunks: AsyncIterator<Uint8Array> | null; left: number } | null = null;
    const stream = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const enqueue = (chunk: Uint8Array) => {
          written += chunk.byteLength;
          controller.enqueue(chunk);
        };
        probe.sample('writing');
        if (index === -1) {
          enqueue(copy(header, '\n\n'));
          index = 0;
          return;
        }
        if (photoInFlight) {
          // An image's bytes pass from Storage's answer to ours a chunk at a time, exactly the
          // number counted, so every offset after it holds even if Storage answered otherwise (a
          // missing object shows as an empty image, never a broken file).
          const chunk = photoInFlight.chunks ? await photoInFlight.chunks.next() : { done: true as const, value: undefined };
          if (!chunk.done && chunk.value.byteLength < photoInFlight.left) {
            photoInFlight.left -= chunk.value.byteLength;
            enqueue(chunk.value);
            return;
          }
          if (!chunk.done) {
            enqueue(chunk.value.subarray(0, photoInFlight.left));
            await photoInFlight.reader?.cancel();
          } else if (photoInFlight.left > 0) {
            enqueue(new Uint8Array(photoInFlight.left));
          }
          photoInFlight = null;
          enqueue(encoder.encode('\nendstream\nendobj\n\n'));
          return;
        }
        if (index < indirectObjects.length) {
          const [ref, object] = indirectObjects[index++];
          const photo = deferred.get(ref);
          const opening = encoder.encode(`${ref.objectNumber} ${ref.generationNumber} obj\n`);
          if (!photo && object instanceof PDFRawStream) {
            // A stream's bytes as the document holds them, not copied: a decoded image is megabytes,
            // and a copy would be held again until the client has it.
            const contents = object.getContents();
            enqueue(opening);
            enqueue(this.streamHead(object, contents.byteLength));
            enqueue(contents);
            enqueue(encoder.encode('\nendstream\nendobj\n\n'));
            return;
          }
          if (!photo) {
            const body = new Uint8Array(object.sizeInBytes());
            object.copyBytesInto(body, 0);
            const chunk = new Uint8Array(opening.byteLength + body.byteLength + 9);
            chunk.set(opening, 0);
            chunk.set(body, opening.byteLength);
            chunk.set(encoder.encode('\nendobj\n\n'), opening.byteLength + body.byteLength);
            enqueue(chunk);
            return;
          }
          enqueue(opening);
          enqueue(this.streamHead(object, photo.bytes));
          const reader = await openEvidence(caller, photo.path);
          const chunks = reader && (photo.data === 'file' ? reader.rest() : pngImageData(reader));
          photoInFlight = { reader, chunks: chunks ? chunks[Symbol.asyncIterator]() : null, left: photo.bytes };
          return;
        }
        enqueue(copy(xref, '\n'));
        enqueue(copy(trailerDict, '\n\n'));
        enqueue(copy(fixedTrailer));
        probe.end();
        if (written !== length) console.error(JSON.stringify({ level: 'error', message: 'report length differs from its computed size', written, length }));
        controller.close();
      },
      // The client went away: let go of the photo being read.
      cancel: async () => {
        await photoInFlight?.reader?.cancel();
      },
    }, { highWaterMark: 1 });
    return { stream, length };
  }
}
