/**
 * The try-it form's finishing steps (docs/finishing.md): a text stamp, form fields flattened,
 * a password and permissions, and a signature with the team's key. Each becomes the request
 * field the API takes (`stamp`, `flatten`, `encrypt`, `sign`), sent only when asked for, so the
 * service's own rules judge it and its message shows in the form (a team without a signing key
 * answers 400 saying how to store one).
 */

/** The service's stamp positions (src/core/pdf/stamp-options.ts); the page cannot import Node code, and the server judges. */
const POSITIONS = ['center', 'top-left', 'top', 'top-right', 'left', 'right', 'bottom-left', 'bottom', 'bottom-right'];
const PRINT = ['high', 'low', 'none'];
const MODIFY = ['none', 'forms', 'assembly', 'all'];

export interface Finishing {
  /** opacity as typed (a number box's text), so clearing the box leaves it empty rather than 0. */
  stamp: { text: string; pages: string; position: string; opacity: string };
  flatten: boolean;
  encrypt: { on: boolean; userPassword: string; ownerPassword: string; print: string; modify: string; copy: boolean; annotate: boolean };
  sign: boolean;
}

/** As the API's defaults have it: nothing stamped, encrypted or signed; a stamp's defaults when one is typed. */
export const NO_FINISHING: Finishing = {
  stamp: { text: '', pages: 'all', position: 'center', opacity: '0.5' },
  flatten: false,
  encrypt: { on: false, userPassword: '', ownerPassword: '', print: 'high', modify: 'none', copy: true, annotate: false },
  sign: false,
};

/** The request's fields: only the steps asked for. */
export function finishingFields({ stamp, flatten, encrypt, sign }: Finishing) {
  const { text, pages, position, opacity } = stamp;
  const { on, userPassword, ownerPassword, print, modify, copy, annotate } = encrypt;
  return {
    ...(text.trim() ? { stamp: { text, pages, position, opacity: Number(opacity) } } : {}),
    ...(flatten ? { flatten: true } : {}),
    // An empty password box means "none": the service wants at least one of the two.
    ...(on ? { encrypt: { ...(userPassword ? { userPassword } : {}), ...(ownerPassword ? { ownerPassword } : {}), permissions: { print, modify, copy, annotate } } } : {}),
    ...(sign ? { sign: true } : {}),
  };
}

const Select = ({ name, label, value, options, onChange }: { name: string; label: string; value: string; options: string[]; onChange: (value: string) => void }) => (
  <label>
    {label}{' '}
    <select name={name} value={value} onChange={(event) => onChange(event.target.value)}>
      {options.map((option) => (
        <option key={option}>{option}</option>
      ))}
    </select>
  </label>
);

export function FinishingInput({ value, onChange }: { value: Finishing; onChange: (value: Finishing) => void }) {
  const { stamp, encrypt } = value;
  const setStamp = (change: Partial<Finishing['stamp']>) => onChange({ ...value, stamp: { ...stamp, ...change } });
  const setEncrypt = (change: Partial<Finishing['encrypt']>) => onChange({ ...value, encrypt: { ...encrypt, ...change } });
  return (
    <fieldset className="try-options finishing" data-testid="try-it-finishing">
      <legend>Finishing</legend>
      <div className="row" data-testid="finishing-stamp">
        <label>
          Stamp <input type="text" name="stamp-text" placeholder="e.g. DRAFT" maxLength={200} value={stamp.text} onChange={(event) => setStamp({ text: event.target.value })} />
        </label>
        <label>
          on pages <input type="text" name="stamp-pages" size={8} value={stamp.pages} title="all, first, last, or pages and ranges: 2, 1-3, 2,4, 3-" onChange={(event) => setStamp({ pages: event.target.value })} />
        </label>
        <Select name="stamp-position" label="at" value={stamp.position} options={POSITIONS} onChange={(position) => setStamp({ position })} />
        <label>
          opacity <input type="number" name="stamp-opacity" min={0.05} max={1} step={0.05} value={stamp.opacity} onChange={(event) => setStamp({ opacity: event.target.value })} />
        </label>
      </div>
      <div className="row">
        <label>
          <input type="checkbox" name="flatten" checked={value.flatten} onChange={(event) => onChange({ ...value, flatten: event.target.checked })} /> Flatten form fields
        </label>
        <label>
          <input type="checkbox" name="sign" checked={value.sign} onChange={(event) => onChange({ ...value, sign: event.target.checked })} /> Sign with the team's key (PAdES)
        </label>
        <label>
          <input type="checkbox" name="encrypt" checked={encrypt.on} onChange={(event) => setEncrypt({ on: event.target.checked })} /> Password-protect
        </label>
      </div>
      {encrypt.on && (
        <div className="row" data-testid="finishing-encrypt">
          <label>
            User password <input type="password" name="user-password" autoComplete="new-password" value={encrypt.userPassword} onChange={(event) => setEncrypt({ userPassword: event.target.value })} />
          </label>
          <label>
            Owner password <input type="password" name="owner-password" autoComplete="new-password" value={encrypt.ownerPassword} onChange={(event) => setEncrypt({ ownerPassword: event.target.value })} />
          </label>
          <Select name="print" label="Print" value={encrypt.print} options={PRINT} onChange={(print) => setEncrypt({ print })} />
          <Select name="modify" label="Modify" value={encrypt.modify} options={MODIFY} onChange={(modify) => setEncrypt({ modify })} />
          <label>
            <input type="checkbox" name="copy" checked={encrypt.copy} onChange={(event) => setEncrypt({ copy: event.target.checked })} /> Copy
          </label>
          <label>
            <input type="checkbox" name="annotate" checked={encrypt.annotate} onChange={(event) => setEncrypt({ annotate: event.target.checked })} /> Annotate
          </label>
        </div>
      )}
    </fieldset>
  );
}
