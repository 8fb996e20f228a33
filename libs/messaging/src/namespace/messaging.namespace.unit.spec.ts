import { InvalidDefinitionError } from '../errors/messaging.errors';
import { createNamespace } from './messaging.namespace';

describe('createNamespace', () => {
  it('prefixes subjects, streams and consumers, and strips them back', () => {
    const namespace = createNamespace('t3f9a2');

    expect(namespace.subject('task.message.x')).toBe('t3f9a2.task.message.x');
    expect(namespace.subject('task.>')).toBe('t3f9a2.task.>');
    expect(namespace.stream('TASKS')).toBe('t3f9a2_TASKS');
    expect(namespace.consumer('projector')).toBe('t3f9a2_projector');
    expect(namespace.logicalSubject('t3f9a2.task.message.x')).toBe('task.message.x');
    expect(namespace.logicalStream('t3f9a2_TASKS')).toBe('TASKS');
    expect(namespace.logicalConsumer('t3f9a2_projector')).toBe('projector');
  });

  it('leaves names unchanged without a namespace', () => {
    const namespace = createNamespace();

    expect(namespace.value).toBeUndefined();
    expect(namespace.subject('task.message.x')).toBe('task.message.x');
    expect(namespace.stream('TASKS')).toBe('TASKS');
    expect(namespace.logicalSubject('task.message.x')).toBe('task.message.x');
  });

  it('does not strip a namespace that only shares a prefix', () => {
    expect(createNamespace('t1').logicalSubject('t12.task.x')).toBe('t12.task.x');
  });

  it.each(['has.dot', 'has space', 'x'.repeat(33)])('rejects the namespace %p', (value) => {
    expect(() => createNamespace(value)).toThrow(InvalidDefinitionError);
  });

  it.each(['', '.task', 'task.', 'task..x', 'task x'])('rejects the subject %p', (subject) => {
    expect(() => createNamespace('ns').subject(subject)).toThrow(InvalidDefinitionError);
  });

  it('rejects stream names that cannot be subject segments', () => {
    expect(() => createNamespace('ns').stream('TASKS.v1')).toThrow(InvalidDefinitionError);
    expect(() => createNamespace('ns').consumer('a*')).toThrow(InvalidDefinitionError);
  });
});
