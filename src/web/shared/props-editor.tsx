/**
 * The props of the preview: a form generated from the template's JSON Schema (react-jsonschema-form)
 * and a raw JSON tab beside it. Every edit goes up at once; the path messages come from the
 * server's own props check, the one `imprint render` applies. The form's validator is handed in:
 * the studio uses Ajv, the service's dashboard one that needs no eval (its page allows none).
 */
import Form from '@rjsf/core';
import type { ValidatorType } from '@rjsf/utils';
import { useEffect, useState } from 'react';

interface Props {
  schema?: object;
  schemaNote?: string;
  value: unknown;
  errors: string[];
  onChange(value: unknown): void;
  validator: ValidatorType;
}

export function PropsEditor({ schema, schemaNote, value, errors, onChange, validator }: Props) {
  const [tab, setTab] = useState<'form' | 'json'>(schema ? 'form' : 'json');
  const [text, setText] = useState(() => JSON.stringify(value, null, 2));
  const [parseError, setParseError] = useState<string>();
  // The JSON tab shows the props as they are unless the author is mid-way through typing invalid JSON.
  useEffect(() => {
    if (!parseError) setText(JSON.stringify(value, null, 2));
  }, [value, parseError]);

  return (
    <section className="props-editor">
      <div className="tabs" role="tablist">
        <button type="button" role="tab" aria-selected={tab === 'form'} disabled={!schema} onClick={() => setTab('form')}>
          Form
        </button>
        <button type="button" role="tab" aria-selected={tab === 'json'} onClick={() => setTab('json')}>
          JSON
        </button>
      </div>
      {errors.length > 0 && (
        <ul className="props-errors" data-testid="props-errors">
          {errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
      {tab === 'form' && schema ? (
        <Form
          schema={schema}
          validator={validator}
          formData={value}
          onChange={(event) => onChange(event.formData)}
          uiSchema={{ 'ui:submitButtonOptions': { norender: true } }}
          showErrorList={false}
          noHtml5Validate
        />
      ) : (
        <>
          {!schema && schemaNote && <p className="note">No form: {schemaNote}</p>}
          <textarea
            className="raw-json"
            spellCheck={false}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              try {
                const parsed = JSON.parse(event.target.value);
                setParseError(undefined);
                onChange(parsed);
              } catch (error) {
                setParseError((error as Error).message);
              }
            }}
          />
          {parseError && <p className="parse-error">Not JSON yet: {parseError}</p>}
        </>
      )}
    </section>
  );
}
