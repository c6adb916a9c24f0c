export * from './audio';
export * from './constants';
export * from './rtvi';
export * from './serializer';
export * from './transport';
export * from './websocket-transport';
