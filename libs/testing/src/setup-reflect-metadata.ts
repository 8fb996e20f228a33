// NestJS and TypeORM decorators read design-time metadata through this polyfill.
import 'reflect-metadata';
