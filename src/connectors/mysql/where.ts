/** Which connection a failure belongs to, for its message and its `connection`. */
export interface Where {
  /** `mysql.<name>` */
  readonly key: string;
  /** `connection "mysql" "<name>"` */
  readonly label: string;
}
