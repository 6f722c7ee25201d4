import { describe, expect, it } from 'vitest';

import { isJsonContentType, jsonBodyProblem } from '../../src/http/json-content-type.js';

describe('isJsonContentType', () => {
  it('accepts application/json and application/*+json, with parameters, in any case', () => {
    for (const t of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset=UTF-8',
      ' application/a2a+json ',
      'application/vnd.api+json; ext=x',
    ])
      expect(isJsonContentType(t), t).toBe(true);
  });

  it('refuses everything else', () => {
    for (const t of [
      undefined,
      '',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      'application/json-seq',
      'application/+json',
      'text/plain; a=application/json',
    ]) {
      expect(isJsonContentType(t), String(t)).toBe(false);
    }
  });
});

describe('jsonBodyProblem', () => {
  it('needs a JSON type only when there is a body', () => {
    expect(jsonBodyProblem({})).toBeUndefined();
    expect(jsonBodyProblem({ 'content-type': 'text/plain', 'content-length': '0' })).toBeUndefined();
    expect(jsonBodyProblem({ 'content-type': 'application/json', 'content-length': '12' })).toBeUndefined();
    expect(jsonBodyProblem({ 'content-type': 'text/plain', 'content-length': '12' })).toMatch(
      /^Content-Type "text\/plain" is not accepted/,
    );
    expect(jsonBodyProblem({ 'content-type': 'text/plain', 'transfer-encoding': 'chunked' })).toMatch(/not accepted/);
    expect(jsonBodyProblem({ 'content-length': '12' })).toMatch(/no Content-Type/);
  });
});
