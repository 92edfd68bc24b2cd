export interface Country {
  code: string;
  name: string;
}

export interface Currency {
  code: string;
  name: string;
  minorUnits: number;
}
