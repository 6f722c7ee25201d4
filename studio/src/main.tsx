/** The Studio's entry: theme first (no flash), then the app. */
import './styles.css';

import { render } from 'preact';

import { App } from './app.js';
import { applyTheme, currentTheme } from './theme.js';

applyTheme(currentTheme());
render(<App />, document.getElementById('app')!);
