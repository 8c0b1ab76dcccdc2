import { useEffect, useId, useRef, useState, type PointerEvent } from 'react';
import type { AnswerInputProps } from './answer-input';

const WIDTH = 600;
const HEIGHT = 200;

interface SignatureValue {
  signer: string;
  image: string;
}

function isSignature(value: unknown): value is SignatureValue {
  const candidate = value as Partial<SignatureValue> | null;
  return typeof candidate?.signer === 'string' && typeof candidate.image === 'string';
}

/** Sign with a finger or mouse on a canvas; saved as a PNG data URL with the signer's name. */
export function SignaturePad({ item, value, labelId, describedBy, disabled, onChange }: AnswerInputProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const nameId = useId();
  const saved = isSignature(value) ? value : null;
  const [signer, setSigner] = useState(saved?.signer ?? '');
  const [drawn, setDrawn] = useState(false);
  // A saved signature is shown as its image until the user signs again.
  const [signing, setSigning] = useState(!saved);

  useEffect(() => {
    if (saved && !drawn) {
      setSigner(saved.signer);
      setSigning(false);
    }
    if (!saved && !drawn) setSigning(true);
    // Only a change of the saved value re-reads it; our own strokes don't.
  }, [saved?.signer, saved?.image]);

  function context() {
    const canvas = canvasRef.current;
    const drawingContext = canvas?.getContext('2d');
    if (!canvas || !drawingContext) return null;
    drawingContext.lineWidth = 3;
    drawingContext.lineCap = 'round';
    drawingContext.lineJoin = 'round';
    drawingContext.strokeStyle = '#1b2430';
    return { canvas, drawingContext };
  }

  function point(event: PointerEvent<HTMLCanvasElement>) {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: ((event.clientX - rect.left) / rect.width) * WIDTH, y: ((event.clientY - rect.top) / rect.height) * HEIGHT };
  }

  function emit(name: string, immediate: boolean) {
    const canvas = canvasRef.current;
    if (!canvas || name.trim() === '') return;
    onChange({ signer: name.trim(), image: canvas.toDataURL('image/png') }, immediate);
  }

  /** The keyboard's way to sign: the typed name, written in the box as a signature. */
  function signWithTypedName() {
    const target = context();
    const name = signer.trim();
    if (!target || name === '') return;
    target.drawingContext.clearRect(0, 0, WIDTH, HEIGHT);
    target.drawingContext.fillStyle = '#1b2430';
    target.drawingContext.font = 'italic 56px "Segoe Script", "Brush Script MT", "URW Chancery L", cursive';
    target.drawingContext.textBaseline = 'middle';
    target.drawingContext.fillText(name, 24, HEIGHT / 2, WIDTH - 48);
    setDrawn(true);
    emit(name, true);
  }

  function clear() {
    const target = context();
    target?.drawingContext.clearRect(0, 0, WIDTH, HEIGHT);
    setDrawn(false);
    setSigning(true);
    if (saved) onChange(null, true);
  }

  return (
    <div className="signature" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
      {signing ? (
        <canvas
          ref={canvasRef}
          className="signature-canvas"
          width={WIDTH}
          height={HEIGHT}
          role="img"
          aria-label={`Signature box for ${item.label}: sign with your finger or mouse`}
          onPointerDown={(event) => {
            if (disabled) return;
            const target = context();
            if (!target) return;
            event.currentTarget.setPointerCapture(event.pointerId);
            drawing.current = true;
            const { x, y } = point(event);
            target.drawingContext.beginPath();
            target.drawingContext.moveTo(x, y);
            target.drawingContext.lineTo(x + 0.1, y + 0.1);
            target.drawingContext.stroke();
          }}
          onPointerMove={(event) => {
            if (!drawing.current) return;
            const target = context();
            if (!target) return;
            const { x, y } = point(event);
            target.drawingContext.lineTo(x, y);
            target.drawingContext.stroke();
          }}
          onPointerUp={() => {
            if (!drawing.current) return;
            drawing.current = false;
            setDrawn(true);
            emit(signer, true);
          }}
        />
      ) : saved ? (
        <img className="signature-image" src={saved.image} alt={`Signature of ${saved.signer}`} />
      ) : null}
      <div className="field">
        <label htmlFor={nameId}>Signer's name</label>
        <input
          id={nameId}
          value={signer}
          maxLength={120}
          autoComplete="name"
          disabled={disabled}
          onChange={(event) => {
            setSigner(event.target.value);
            if (signing && drawn) emit(event.target.value, false);
            else if (saved && !signing && event.target.value.trim() !== '') onChange({ ...saved, signer: event.target.value.trim() }, false);
          }}
        />
      </div>
      {signing && drawn && signer.trim() === '' ? <p className="field-hint">Enter the signer's name to save the signature.</p> : null}
      {!disabled ? (
        <div className="button-row">
          {signing && !drawn ? (
            <button
              type="button"
              className="button button-secondary"
              disabled={signer.trim() === ''}
              aria-describedby={`${nameId}-typed`}
              onClick={signWithTypedName}
            >
              Sign with the typed name
            </button>
          ) : null}
          <button type="button" className="button button-secondary" onClick={clear}>
            {saved && !signing ? 'Sign again' : 'Clear signature'}
          </button>
        </div>
      ) : null}
      {signing && !drawn && !disabled ? (
        <p className="field-hint" id={`${nameId}-typed`}>
          No finger or mouse at hand? Type the signer's name, then sign with it.
        </p>
      ) : null}
    </div>
  );
}
