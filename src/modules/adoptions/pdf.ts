import type PDFKitModule from 'pdfkit';
import type QRCodeModule from 'qrcode';
import { lazyRequire } from '../../platform/lazy.ts';
import type { SignedContractT, CageCardTemplateT } from './schemas.ts';

/** Loaded on first use: PDF and QR code libraries are hundreds of modules that most processes never need. */
const pdfkit = lazyRequire<typeof PDFKitModule>('pdfkit');
const qrcode = lazyRequire<typeof QRCodeModule>('qrcode');

function render(opts: PDFKit.PDFDocumentOptions, draw: (doc: PDFKit.PDFDocument) => Promise<void> | void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const PDFDocument = pdfkit();
    const doc = new PDFDocument({ ...opts, info: { ...opts.info, CreationDate: new Date(0) } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    Promise.resolve(draw(doc)).then(
      () => doc.end(),
      (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
    );
  });
}

/** The contract as signed: the exact document, then the signature block and the document's SHA-256. */
export function contractPdf(c: SignedContractT, orgName: string): Promise<Buffer> {
  return render({ size: 'LETTER', margin: 56, info: { Title: c.title } }, (doc) => {
    doc.font('Helvetica').fontSize(10).fillColor('#555').text(orgName);
    doc.moveDown(0.5).font('Helvetica-Bold').fontSize(18).fillColor('#000').text(c.title);
    doc.moveDown();
    doc.font('Helvetica').fontSize(11);
    for (const para of c.document.split(/\n\s*\n/)) doc.text(para.trim()).moveDown(0.6);
    doc.moveDown();
    const y = doc.y;
    doc
      .moveTo(56, y)
      .lineTo(doc.page.width - 56, y)
      .lineWidth(1)
      .stroke('#000');
    doc.moveDown(0.5).font('Helvetica-Bold').fontSize(13).text('Signature');
    doc.font('Helvetica').fontSize(10);
    if (c.signed_at) {
      const at = new Date(c.signed_at).toISOString();
      doc
        .font('Helvetica-Oblique')
        .fontSize(16)
        .text(c.signed_name ?? '')
        .font('Helvetica')
        .fontSize(10);
      doc.text(`Signed electronically by: ${c.signed_name ?? ''}`);
      doc.text(`Signed at: ${at}`);
      doc.text(`IP address: ${c.signed_ip ?? ''}`);
      doc.text(`User agent: ${c.signed_user_agent ?? ''}`);
    } else doc.text('NOT SIGNED');
    doc.moveDown(0.5).text(`Contract: ${c.id} (template ${c.template_id}, version ${c.template_version})`);
    doc.font('Courier').fontSize(8).text(`Document SHA-256: ${c.document_sha256}`);
  });
}

export interface CardAnimal {
  id: string;
  name: string;
  species: string;
  breed: string | null;
  sex: string;
  age: string | null;
  microchip: string | null;
  intake_date: string | null;
  description: string | null;
  public_url: string;
  /** JPEG or PNG bytes of the animal's photo, when the template shows one and the animal has one */
  photo?: Buffer | null;
}

const SIZES: Record<CageCardTemplateT['size'], string | [number, number]> = { a4: 'A4', letter: 'LETTER', index_card: [360, 216] };
const LABELS: Record<string, string> = {
  species: 'Species',
  breed: 'Breed',
  sex: 'Sex',
  age: 'Age',
  microchip: 'Microchip',
  intake_date: 'Intake date',
};

/** One card per page, in the template's size: the chosen fields, and a QR code to the animal's public page when on. */
export function cageCardsPdf(t: CageCardTemplateT, animals: CardAnimal[], orgName: string): Promise<Buffer> {
  const small = t.size === 'index_card';
  const margin = small ? 18 : 48;
  return render({ size: SIZES[t.size], margin, autoFirstPage: false, info: { Title: `${orgName}: cage cards` } }, async (doc) => {
    for (const a of animals) {
      doc.addPage();
      const w = doc.page.width - 2 * margin;
      const qrSize = t.show_qr ? (small ? 90 : 150) : 0;
      const textW = w - (qrSize ? qrSize + 12 : 0);
      doc
        .font('Helvetica')
        .fontSize(small ? 7 : 11)
        .fillColor('#555')
        .text(orgName, margin, margin, { width: textW });
      if (t.fields.includes('name'))
        doc
          .font('Helvetica-Bold')
          .fontSize(small ? 20 : 40)
          .fillColor('#000')
          .text(a.name, { width: textW });
      doc.moveDown(0.3);
      if (t.fields.includes('photo') && a.photo) {
        // The photo under the name, scaled into a box a third of the card high; the text continues below it.
        const boxH = small ? 60 : Math.min(220, (doc.page.height - 2 * margin) / 3);
        const top = doc.y;
        doc.image(a.photo, margin, top, { fit: [textW, boxH] });
        doc.y = top + boxH + (small ? 4 : 10);
        doc.x = margin;
      }
      for (const f of t.fields) {
        const label = LABELS[f];
        if (!label) continue;
        const value = (a as unknown as Record<string, string | null>)[f] ?? 'unknown';
        doc
          .font('Helvetica-Bold')
          .fontSize(small ? 8 : 14)
          .fillColor('#000')
          .text(`${label}: `, { continued: true, width: textW })
          .font('Helvetica')
          .text(value);
      }
      if (t.fields.includes('description') && a.description) {
        doc
          .moveDown(0.5)
          .font('Helvetica')
          .fontSize(small ? 7 : 12)
          .text(a.description, { width: textW, height: small ? 50 : 300, ellipsis: true });
      }
      if (qrSize) {
        const png = await qrcode().toBuffer(a.public_url, { type: 'png', margin: 1, width: qrSize * 2, errorCorrectionLevel: 'M' });
        doc.image(png, doc.page.width - margin - qrSize, margin, { width: qrSize, height: qrSize });
        doc
          .font('Helvetica')
          .fontSize(small ? 5 : 8)
          .fillColor('#555')
          .text(a.public_url, doc.page.width - margin - qrSize, margin + qrSize + 2, { width: qrSize, align: 'center' });
      }
    }
  });
}
