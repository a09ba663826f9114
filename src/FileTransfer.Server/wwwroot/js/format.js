// Human units for sizes, speeds, durations and dates.

const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** 0 B, 999 B, 1.0 KiB, 15.3 MiB, 120 GiB: three significant figures at most. */
export function formatSize(bytes) {
  if (!Number.isFinite(bytes) || bytes < 0) {
    return '';
  }
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) {
    return `${value} B`;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function formatSpeed(bytesPerSecond) {
  return `${formatSize(Math.round(bytesPerSecond))}/s`;
}

/** "5 s", "3 min 20 s", "2 h 5 min". */
export function formatDuration(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) {
    return '';
  }
  const s = Math.ceil(seconds);
  if (s < 60) {
    return `${s} s`;
  }
  if (s < 3600) {
    return `${Math.floor(s / 60)} min ${s % 60} s`;
  }
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(value) {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

export function plural(count, one, many) {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}
