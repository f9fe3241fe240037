import { ENUMS } from '../enums.js';
import type { FieldSpec } from './flags.js';

/** Weight and size flags shared by products and packages; `unitNote` describes unit defaults. */
export const dimensionFields = (unitNote: string): FieldSpec[] => [
  { key: 'weight', type: 'number', min: 0, description: 'weight, in --weight-unit' },
  { key: 'weight_unit', type: 'enum', values: ENUMS.weight_unit, description: `weight unit${unitNote}` },
  { key: 'length', type: 'number', min: 0, description: 'length, in --measurement-unit' },
  { key: 'width', type: 'number', min: 0, description: 'width' },
  { key: 'height', type: 'number', min: 0, description: 'height' },
  { key: 'measurement_unit', type: 'enum', values: ENUMS.measurement_unit, description: `dimension unit${unitNote}` },
];
