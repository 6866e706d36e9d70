import { describe, expect, it } from 'vitest';
import {
  cpuModel,
  databaseSocket,
  formatMachine,
  parseRedisInfo,
  redisSocket,
  type MachineFacts,
} from '../../bench/machine.js';

describe('databaseSocket', () => {
  it('is tcp for a host name or address', () => {
    expect(databaseSocket('postgres://postgres@127.0.0.1:5432/directory')).toBe('tcp');
    expect(databaseSocket('postgresql://user:secret@db.internal/directory?sslmode=require')).toBe('tcp');
    expect(databaseSocket('host=db.internal dbname=directory')).toBe('tcp');
  });

  it('is unix for a directory as the host, however it is written', () => {
    expect(databaseSocket('postgres://postgres@%2Fvar%2Frun%2Fpostgresql/directory')).toBe('unix');
    expect(databaseSocket('postgres:///directory?host=/var/run/postgresql')).toBe('unix');
    expect(databaseSocket('socket:/var/run/postgresql?db=directory')).toBe('unix');
    expect(databaseSocket('host=/tmp dbname=directory')).toBe('unix');
  });
});

describe('redisSocket', () => {
  it('is unix for a unix: URL or a bare path, tcp otherwise', () => {
    expect(redisSocket('unix:/run/redis/redis.sock')).toBe('unix');
    expect(redisSocket('/run/redis/redis.sock')).toBe('unix');
    expect(redisSocket('redis://127.0.0.1:6379')).toBe('tcp');
    expect(redisSocket('rediss://cache.internal:6380/2')).toBe('tcp');
  });
});

describe('cpuModel and parseRedisInfo', () => {
  it("reads the first processor's model name", () => {
    const cpuinfo =
      'processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\nprocessor\t: 1\n';
    expect(cpuModel(cpuinfo)).toBe('AMD EPYC 7B13');
    expect(cpuModel('')).toBe('unknown');
  });

  it("reads INFO's fields and skips its section headings", () => {
    const info = parseRedisInfo('# Server\r\nredis_version:7.0.15\r\n\r\n# Memory\r\nmaxmemory:0\r\n');
    expect(info.get('redis_version')).toBe('7.0.15');
    expect(info.get('maxmemory')).toBe('0');
    expect(info.has('# Server')).toBe(false);
  });
});

describe('formatMachine', () => {
  it('prints the machine, then each engine with its settings and socket', () => {
    const facts: MachineFacts = {
      cores: 2,
      memory_bytes: 8 * 1024 ** 3,
      cpu_model: 'AMD EPYC 7B13',
      kernel: 'Linux 6.1.0',
      node: 'v20.19.0',
      elasticsearch: { version: '8.19.2', nodes: 1, heap_max_bytes: 512 * 1024 ** 2, socket: 'tcp' },
      postgresql: {
        version: '15.8',
        shared_buffers: '128MB',
        synchronous_commit: 'on',
        wal_level: 'replica',
        max_wal_size: '1GB',
        checkpoint_timeout: '5min',
        fsync: 'on',
        socket: 'unix',
      },
      redis: { version: '7.0.15', maxmemory: 0, aof_enabled: false, save: '3600 1', socket: 'tcp' },
    };
    expect(formatMachine(facts).split('\n')).toEqual([
      'machine: 2 cores (AMD EPYC 7B13), 8.0 GiB memory, Linux 6.1.0, Node v20.19.0',
      'elasticsearch 8.19.2: 1 node, heap 512 MiB, over tcp',
      'postgresql 15.8: shared_buffers 128MB, synchronous_commit on, wal_level replica, max_wal_size 1GB, ' +
        'checkpoint_timeout 5min, fsync on, over unix',
      'redis 7.0.15: maxmemory none, aof off, rdb save "3600 1", over tcp',
    ]);
    const noSnapshots = { ...facts, redis: { ...facts.redis, save: '', maxmemory: 256 * 1024 ** 2 } };
    expect(formatMachine(noSnapshots).split('\n')[3]).toBe(
      'redis 7.0.15: maxmemory 256 MiB, aof off, rdb save off, over tcp',
    );
  });
});
