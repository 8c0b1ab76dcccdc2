import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';
import { Link } from 'react-router-dom';
import { supabaseUrl } from '@/lib/supabase';
import './api-docs.css';

/**
 * /api-docs: the API reference, Scalar's renderer over the api's own openapi.json (docs/openapi.md),
 * so what it shows is what the router runs. Open to anyone, signed in or not: the routes' shapes
 * are no secret, the data behind them is.
 */
export function ApiDocsRoute() {
  return (
    <div className="api-docs">
      <header className="api-docs-header">
        <Link to="/">Fieldcheck</Link>
        <span aria-hidden="true">·</span>
        <h1>API reference</h1>
      </header>
      <main className="api-docs-body">
        <ApiReferenceReact
          configuration={{
            url: `${supabaseUrl}/functions/v1/api/openapi.json`,
            hideClientButton: true,
            hideDarkModeToggle: true,
            withDefaultFonts: false,
          }}
        />
      </main>
    </div>
  );
}
