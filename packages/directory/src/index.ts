export {
  InvalidCursorError,
  MAX_DOCTOR_ID_LENGTH,
  SearchUnavailableError,
  createDirectory,
  type Directory,
  type DirectoryOptions,
  type GetDoctorResult,
} from './directory.service.js';
