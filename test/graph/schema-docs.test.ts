// Every type, field, argument, input field, enum value and directive (with its arguments) of the graph
// carries a description. npm run lint:schema (eslint.config.js) says the same with file and line; this
// test holds the built schema to it.
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isSpecifiedDirective,
  isSpecifiedScalarType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/pipeline/schema.js';

describe('the SDL', () => {
  it('documents everything', () => {
    const schema = buildSchema();
    const undocumented: string[] = [];
    const need = (where: string, description: string | null | undefined) => {
      if (!description?.trim()) undocumented.push(where);
    };
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || (isScalarType(type) && isSpecifiedScalarType(type))) continue;
      if (!['Query', 'Mutation'].includes(type.name)) need(type.name, type.description);
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          need(`${type.name}.${field.name}`, field.description);
          for (const argument of field.args) need(`${type.name}.${field.name}(${argument.name})`, argument.description);
        }
      }
      if (isInputObjectType(type))
        for (const field of Object.values(type.getFields())) need(`${type.name}.${field.name}`, field.description);
      if (isEnumType(type)) for (const value of type.getValues()) need(`${type.name}.${value.name}`, value.description);
    }
    for (const directive of schema.getDirectives()) {
      if (isSpecifiedDirective(directive)) continue;
      need(`@${directive.name}`, directive.description);
      for (const argument of directive.args) need(`@${directive.name}(${argument.name})`, argument.description);
    }
    expect(undocumented).toEqual([]);
  });
});
