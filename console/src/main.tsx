// The console's entry: the page holds one element, #console, whose data-sandbox says whether the
// sandbox view exists (not in production). Everything else comes from /graphql with the person's key.
import { createRoot } from 'react-dom/client';
import '../console.css';
import { App } from './App.js';

const root = document.getElementById('console');
if (root) createRoot(root).render(<App sandbox={root.dataset.sandbox === 'true'} />);
